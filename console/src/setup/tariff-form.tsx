import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import type { Dso, Tariff, TouSchedule } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { titleCase } from '../lib/format.ts';
import { meterTypeLabel } from '../lib/labels.ts';
import { navigate } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { CURRENCIES, METER_TYPES, TARIFF_TYPES } from './enums.ts';
import { Choice, DayField, Field, numberOf, optionsOf, SetupForm, textOf } from './form-kit.tsx';

export interface TariffReferences {
  dsos: Dso[];
  schedules: TouSchedule[];
}

export async function tariffReferences(): Promise<TariffReferences> {
  const [dsos, schedules] = await Promise.all([
    read<Dso[]>(api.GET('/api/v1/dsos')),
    read<TouSchedule[]>(api.GET('/api/v1/tou_schedules')),
  ]);
  return { dsos, schedules };
}

function tariffFields(data: FormData) {
  const tariffType = (textOf(data, 'tariff_type') ?? 'FLAT') as Tariff['tariff_type'];
  return {
    name: textOf(data, 'name') ?? '',
    description: textOf(data, 'description'),
    tariff_type: tariffType,
    meter_type: (textOf(data, 'meter_type') ?? 'ELECTRICITY') as Tariff['meter_type'],
    dso_id: numberOf(data, 'dso_id'),
    // Only a time-of-use tariff has a schedule (the API refuses one on the others).
    tou_schedule_id: tariffType === 'TIME_OF_USE' ? numberOf(data, 'tou_schedule_id') : null,
    effective_from: textOf(data, 'effective_from') ?? '',
    effective_to: textOf(data, 'effective_to') ?? '',
    currency: (textOf(data, 'currency') ?? 'ZAR') as Tariff['currency'],
    tax_rate: numberOf(data, 'tax_rate') ?? 0,
    timezone: textOf(data, 'timezone') ?? 'Africa/Johannesburg',
  };
}

const day = (text: string | undefined) => text?.slice(0, 10);

function TariffFields({ tariff, references }: { tariff?: Tariff; references: TariffReferences }) {
  const { tz } = useOrganization();
  return (
    <>
      <Field label="Name" name="name" required maxLength={200} defaultValue={tariff?.name} />
      <Field label="Description" name="description" maxLength={4000} defaultValue={tariff?.description ?? ''} />
      <Choice
        label="Tariff type"
        name="tariff_type"
        options={optionsOf(TARIFF_TYPES, titleCase)}
        defaultValue={tariff?.tariff_type ?? 'FLAT'}
        hint="Time of use: prices by period of the day; block: prices by tiers of consumption."
      />
      <Choice
        label="Time-of-use schedule"
        name="tou_schedule_id"
        options={references.schedules.map((s) => ({
          value: String(s.id),
          label: `${s.name}, version ${s.version}${s.dso ? ` (${s.dso.name})` : ''}`,
        }))}
        defaultValue={String(tariff?.tou_schedule_id ?? 3)}
        hint="Which hours are peak, standard and off-peak; used by time-of-use tariffs only."
      />
      <Choice
        label="Meters"
        name="meter_type"
        options={optionsOf(METER_TYPES, meterTypeLabel)}
        defaultValue={tariff?.meter_type ?? 'ELECTRICITY'}
      />
      <Choice
        label="Provider"
        name="dso_id"
        options={[
          { value: '', label: 'None' },
          ...references.dsos.map((d) => ({ value: String(d.id), label: d.name })),
        ]}
        defaultValue={String(tariff?.dso_id ?? references.dsos[0]?.id ?? '')}
        hint="Its seasons decide which items apply in which month."
      />
      <DayField label="Effective from" name="effective_from" required defaultValue={day(tariff?.effective_from)} />
      <DayField label="Effective to" name="effective_to" required defaultValue={day(tariff?.effective_to)} />
      <Choice
        label="Currency"
        name="currency"
        options={optionsOf(CURRENCIES)}
        defaultValue={tariff?.currency ?? 'ZAR'}
      />
      <Field
        label="Tax rate (%)"
        name="tax_rate"
        type="number"
        min={0}
        max={100}
        step="any"
        defaultValue={tariff?.tax_rate ?? 15}
      />
      <Field
        label="Time zone"
        name="timezone"
        required
        maxLength={64}
        defaultValue={tariff?.timezone ?? tz}
        hint="IANA name, e.g. Africa/Johannesburg."
      />
    </>
  );
}

/** "New tariff": its facts; items, tiers and transitions are added on its edit page next. */
export function NewTariffPage() {
  const { current, tariffsChanged } = useOrganization();
  const references = useResource(tariffReferences, []);
  useEffect(() => {
    document.title = 'New tariff · Utility Management Console';
  }, []);
  const create = async (data: FormData) => {
    const created = await read<Tariff>(
      api.POST('/api/v1/tariffs', { body: { account_id: current.id, ...tariffFields(data) } }),
    );
    tariffsChanged();
    navigate(`/tariffs/${created.id}/edit`);
  };
  return (
    <>
      <h1>New tariff</h1>
      <p className="muted">Or clone a published tariff from the catalogue and edit the copy.</p>
      <Async resource={references} label="Loading…">
        {(found) => (
          <SetupForm label="New tariff" submit="Create tariff" busyLabel="Creating…" onSubmit={create}>
            <TariffFields references={found} />
          </SetupForm>
        )}
      </Async>
    </>
  );
}

/** The tariff's own fields, saved in place. */
export function TariffFactsForm({
  tariff,
  references,
  onSaved,
}: {
  tariff: Tariff;
  references: TariffReferences;
  onSaved: () => void;
}) {
  const { current } = useOrganization();
  const save = async (data: FormData) => {
    await read(
      api.PUT('/api/v1/tariffs/{id}', {
        params: { path: { id: tariff.id } },
        body: { account_id: current.id, ...tariffFields(data) },
      }),
    );
    onSaved();
  };
  return (
    <SetupForm label="Edit tariff" submit="Save tariff" onSubmit={save}>
      <TariffFields tariff={tariff} references={references} />
    </SetupForm>
  );
}
