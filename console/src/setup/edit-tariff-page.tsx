import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import type { Tariff, TariffItemType } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { priceUnit } from '../lib/bill-lines.ts';
import { formatUnitPrice, titleCase } from '../lib/format.ts';
import { itemName, itemTypes } from '../lib/item-types.ts';
import { Link } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { TouGrids } from '../tariffs/tou-grid-view.tsx';
import { AddItem, EditItem, type ItemProps } from './item-form.tsx';
import { TariffFactsForm, type TariffReferences, tariffReferences } from './tariff-form.tsx';
import { allTariffs } from './tariff-options.ts';
import { TiersForm } from './tiers-form.tsx';
import { Transitions } from './transition-form.tsx';

interface Loaded extends TariffReferences {
  tariff: Tariff;
  types: Map<string, TariffItemType>;
  tariffs: Tariff[];
}

function ItemEditor({ tariff, item, types, onSaved }: ItemProps) {
  const name = `${itemName(types, item.item_type_code)}, ${titleCase(item.season)}`;
  const currency = tariff.currency;
  const unit = item.unit ?? types.get(item.item_type_code)?.unit ?? '';
  return (
    <li data-item={item.item_type_code}>
      <details>
        <summary>
          Edit {name}
          <span className="muted">
            {' '}
            ·{' '}
            {item.tariff_blocks.length > 0
              ? `${item.tariff_blocks.length} tiers`
              : formatUnitPrice(item.price, currency, priceUnit(unit))}
          </span>
        </summary>
        <EditItem tariff={tariff} item={item} types={types} onSaved={onSaved} />
        {(tariff.tariff_type === 'BLOCK' || item.tariff_blocks.length > 0) && (
          <>
            <h4>Tiers of {name}</h4>
            <TiersForm tariff={tariff} item={item} onSaved={onSaved} />
          </>
        )}
      </details>
    </li>
  );
}

function Schedule({ loaded }: { loaded: Loaded }) {
  const schedule = loaded.schedules.find((s) => s.id === loaded.tariff.tou_schedule_id);
  if (!schedule) return null;
  return (
    <section aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">Time-of-use schedule: {schedule.name}</h2>
      <p className="muted">Choose another schedule under Edit tariff above; the grid shows the one saved.</p>
      <TouGrids schedule={schedule} />
    </section>
  );
}

/** "Edit tariff": its facts, its items (with tiers), "Add item", its schedule and its transition. */
export function EditTariffPage({ id }: { id: number }) {
  const { current } = useOrganization();
  const loaded = useResource(async (): Promise<Loaded> => {
    const [tariff, types, references, tariffs] = await Promise.all([
      read<Tariff>(api.GET('/api/v1/tariffs/{id}', { params: { path: { id }, query: { account_id: current.id } } })),
      itemTypes(),
      tariffReferences(),
      allTariffs(current.id),
    ]);
    return { tariff, types, tariffs, ...references };
  }, [id, current.id]);
  useEffect(() => {
    document.title = 'Edit tariff · Utility Management Console';
  }, []);
  return (
    <Async resource={loaded} label="Loading the tariff…">
      {(found) => {
        const { tariff, types } = found;
        const items = tariff.tariff_items ?? [];
        return (
          <>
            <p style={{ margin: '0 0 0.5rem' }}>
              <Link href={`/tariffs/${id}`}>‹ {tariff.name}</Link>
            </p>
            <h1>Edit {tariff.name}</h1>
            <section aria-labelledby="facts-heading">
              <h2 id="facts-heading">Edit tariff</h2>
              <TariffFactsForm key={tariff.updated_at} tariff={tariff} references={found} onSaved={loaded.reload} />
            </section>
            <section aria-labelledby="items-heading">
              <h2 id="items-heading">Items</h2>
              {items.length === 0 && <p className="muted">No items yet: add the charges of the tariff below.</p>}
              <ul className="item-list">
                {items.map((item) => (
                  <ItemEditor key={item.id} tariff={tariff} item={item} types={types} onSaved={loaded.reload} />
                ))}
              </ul>
              <details>
                <summary>Add item</summary>
                <AddItem tariff={tariff} types={types} onSaved={loaded.reload} />
              </details>
            </section>
            <Schedule loaded={found} />
            <Transitions tariff={tariff} tariffs={found.tariffs} />
          </>
        );
      }}
    </Async>
  );
}
