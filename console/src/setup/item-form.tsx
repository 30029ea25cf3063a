import { useId } from 'react';
import { api, done, read } from '../api/client.ts';
import type { Tariff, TariffItem, TariffItemType } from '../api/models.ts';
import { titleCase } from '../lib/format.ts';
import { useOrganization } from '../organization.tsx';
import { DEMAND_BASES, PERIODS, SEASONS, UNITS } from './enums.ts';
import { Choice, Field, numberOf, optionsOf, Refusal, SetupForm, textOf, useAction } from './form-kit.tsx';

type Types = Map<string, TariffItemType>;
type Period = (typeof PERIODS)[number];

function itemFields(data: FormData) {
  const periods = data.getAll('demand_periods').map(String) as Period[];
  return {
    item_type_code: (textOf(data, 'item_type_code') ?? '') as TariffItem['item_type_code'],
    season: (textOf(data, 'season') ?? 'ALL_YEAR') as TariffItem['season'],
    price: numberOf(data, 'price') ?? 0,
    unit: textOf(data, 'unit') as TariffItem['unit'],
    demand_basis: textOf(data, 'demand_basis') as TariffItem['demand_basis'],
    demand_periods: periods.length > 0 ? periods : null,
    free_ratio: numberOf(data, 'free_ratio'),
  };
}

function PeriodBoxes({ item }: { item?: TariffItem }) {
  const id = useId();
  return (
    <fieldset className="field periods">
      <legend>Demand periods</legend>
      {PERIODS.map((p) => (
        <span key={p} className="check">
          <input
            id={`${id}-${p}`}
            type="checkbox"
            name="demand_periods"
            value={p}
            defaultChecked={item?.demand_periods?.includes(p) ?? false}
          />
          <label htmlFor={`${id}-${p}`}>{titleCase(p)}</label>
        </span>
      ))}
      <p className="muted hint">
        Time-of-use tariffs: the periods whose demand (kVA) or reactive energy (kvarh) counts. None: all.
      </p>
    </fieldset>
  );
}

function ItemFields({ item, types, currency }: { item?: TariffItem; types: Types; currency: string }) {
  const typeOptions = [...types.values()]
    .sort((a, b) => a.displayName.localeCompare(b.displayName))
    .map((t) => ({ value: t.code, label: `${t.displayName} (${t.unit})` }));
  return (
    <>
      <Choice
        label="Charge"
        name="item_type_code"
        options={typeOptions}
        defaultValue={item?.item_type_code ?? 'ENERGY'}
      />
      <Choice
        label="Season"
        name="season"
        options={optionsOf(SEASONS, titleCase)}
        defaultValue={item?.season ?? 'ALL_YEAR'}
      />
      <Field
        label={`Price (${currency})`}
        name="price"
        type="number"
        required
        step="any"
        defaultValue={item?.price ?? ''}
      />
      <Choice
        label="Per"
        name="unit"
        options={[{ value: '', label: "The charge's own unit" }, ...optionsOf(UNITS)]}
        defaultValue={item?.unit ?? ''}
      />
      <Choice
        label="Demand basis"
        name="demand_basis"
        options={[
          { value: '', label: 'Highest demand of the month (default)' },
          ...optionsOf(DEMAND_BASES, (b) => (b === 'NMD' ? 'Notified maximum demand (NMD)' : titleCase(b))),
        ]}
        defaultValue={item?.demand_basis ?? ''}
        hint="For a charge per kVA per month: which demand it is priced on."
      />
      <PeriodBoxes item={item} />
      <Field
        label="Free ratio (kvarh per kWh)"
        name="free_ratio"
        type="number"
        min={0}
        max={1}
        step="0.0001"
        defaultValue={item?.free_ratio ?? ''}
        hint="For a kvarh charge: reactive energy up to this share of the kWh is free."
      />
    </>
  );
}

/** "Add item" to a tariff. */
export function AddItem({ tariff, types, onSaved }: { tariff: Tariff; types: Types; onSaved: () => void }) {
  const { current } = useOrganization();
  const add = async (data: FormData) => {
    await read(
      api.POST('/api/v1/tariffs/{id}/items', {
        params: { path: { id: tariff.id } },
        body: { account_id: current.id, ...itemFields(data) },
      }),
    );
    onSaved();
  };
  return (
    <SetupForm label="Add item" submit="Add item" busyLabel="Adding…" onSubmit={add}>
      <ItemFields types={types} currency={tariff.currency} />
    </SetupForm>
  );
}

/** An item of a tariff, with the item types, and what to do once it changed. */
export interface ItemProps {
  tariff: Tariff;
  item: TariffItem;
  types: Types;
  onSaved: () => void;
}

/** "Edit item": its fields saved in place, or the item deleted. */
export function EditItem({ tariff, item, types, onSaved }: ItemProps) {
  const { current } = useOrganization();
  const path = { id: tariff.id, itemId: item.id };
  const save = async (data: FormData) => {
    await read(
      api.PUT('/api/v1/tariffs/{id}/items/{itemId}', {
        params: { path },
        body: { account_id: current.id, ...itemFields(data) },
      }),
    );
    onSaved();
  };
  const remove = useAction(async () => {
    if (!window.confirm('Delete this item?')) return;
    await done(
      api.DELETE('/api/v1/tariffs/{id}/items/{itemId}', { params: { path, query: { account_id: current.id } } }),
    );
    onSaved();
  });
  return (
    <>
      <SetupForm
        label={`Edit item ${item.id}`}
        submit="Save item"
        onSubmit={save}
        extra={
          <button type="button" className="danger" disabled={remove.busy} onClick={() => void remove.run()}>
            Delete item
          </button>
        }
      >
        <ItemFields item={item} types={types} currency={tariff.currency} />
      </SetupForm>
      <Refusal error={remove.error} />
    </>
  );
}
