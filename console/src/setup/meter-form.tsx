import { useEffect } from 'react';
import { api, read } from '../api/client.ts';
import type { BuildingBlock, Meter, Tariff } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { meterTypeLabel } from '../lib/labels.ts';
import { Link, navigate } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { allBlocks } from './blocks.ts';
import { INTERVALS, METER_TYPES } from './enums.ts';
import { Choice, DayField, Field, numberOf, optionsOf, SetupForm, textOf } from './form-kit.tsx';
import { allTariffs, tariffOptions } from './tariff-options.ts';

function meterFields(data: FormData) {
  return {
    building_block_id: numberOf(data, 'building_block_id') ?? 0,
    meter_sn: textOf(data, 'meter_sn') ?? '',
    name: textOf(data, 'name'),
    meter_type: (textOf(data, 'meter_type') ?? 'ELECTRICITY') as Meter['meter_type'],
    interval_minutes: (numberOf(data, 'interval_minutes') ?? 30) as Meter['interval_minutes'],
    notified_max_demand_kva: numberOf(data, 'notified_max_demand_kva'),
    installed_on: textOf(data, 'installed_on'),
    tariff_id: numberOf(data, 'tariff_id'),
    is_active: data.get('is_active') === 'on',
  };
}

function MeterFields({
  meter,
  blocks,
  tariffs,
  blockId,
}: {
  meter?: Meter;
  blocks: BuildingBlock[];
  tariffs: Tariff[];
  blockId: number;
}) {
  return (
    <>
      <Field
        label="Serial number"
        name="meter_sn"
        required
        maxLength={64}
        defaultValue={meter?.meter_sn}
        hint="As printed on the meter; unique."
      />
      <Field
        label="Name"
        name="name"
        maxLength={200}
        defaultValue={meter?.name ?? ''}
        hint="Optional, e.g. Main incomer."
      />
      <Choice
        label="Energy source"
        name="meter_type"
        options={optionsOf(METER_TYPES, (t) => (t === 'ELECTRICITY' ? 'Grid electricity' : meterTypeLabel(t)))}
        defaultValue={meter?.meter_type ?? 'ELECTRICITY'}
      />
      <Choice
        label="Building block"
        name="building_block_id"
        options={blocks.map((b) => ({ value: String(b.id), label: b.name }))}
        defaultValue={String(meter?.building_block_id ?? blockId)}
      />
      <Choice
        label="Reading interval"
        name="interval_minutes"
        options={INTERVALS.map((m) => ({ value: String(m), label: `${m} minutes` }))}
        defaultValue={String(meter?.interval_minutes ?? 30)}
      />
      <Field
        label="Notified maximum demand (NMD, kVA)"
        name="notified_max_demand_kva"
        type="number"
        min={0}
        step="0.001"
        defaultValue={meter?.notified_max_demand_kva ?? ''}
        hint="What the utility agreed to supply; capacity charges are priced on it."
      />
      <DayField
        label="Installed on"
        name="installed_on"
        defaultValue={meter?.installed_on ?? ''}
        hint="No bill charges a day before it. Empty: the day of the first reading."
      />
      <Choice
        label="Tariff"
        name="tariff_id"
        options={tariffOptions(tariffs)}
        defaultValue={String(meter?.tariff_id ?? '')}
      />
      <div className="field check">
        <input id="meter-active" name="is_active" type="checkbox" defaultChecked={meter?.is_active ?? true} />
        <label htmlFor="meter-active">Active</label>
      </div>
    </>
  );
}

function useChoices() {
  const { current } = useOrganization();
  return useResource(async () => {
    const [blocks, tariffs] = await Promise.all([allBlocks(current.id), allTariffs(current.id)]);
    return { blocks, tariffs };
  }, [current.id]);
}

/** "New meter" in a building block. */
export function NewMeterPage({ blockId }: { blockId: number }) {
  const { current } = useOrganization();
  const choices = useChoices();
  useEffect(() => {
    document.title = 'New meter · Utility Management Console';
  }, []);
  const create = async (data: FormData) => {
    const created = await read<Meter>(
      api.POST('/api/v1/meters', { body: { account_id: current.id, ...meterFields(data) } }),
    );
    navigate(`/meters/${created.id}`);
  };
  return (
    <>
      <p style={{ margin: '0 0 0.5rem' }}>
        <Link href={`/buildings/${blockId}`}>‹ Building</Link>
      </p>
      <h1>New meter</h1>
      <Async resource={choices} label="Loading…">
        {({ blocks, tariffs }) => (
          <SetupForm label="New meter" submit="Create meter" busyLabel="Creating…" onSubmit={create}>
            <MeterFields blocks={blocks} tariffs={tariffs} blockId={blockId} />
          </SetupForm>
        )}
      </Async>
    </>
  );
}

/** "Edit meter": its serial, source, block, interval, NMD, tariff. */
export function EditMeterPage({ id }: { id: number }) {
  const { current } = useOrganization();
  const choices = useChoices();
  const meter = useResource(
    () => read<Meter>(api.GET('/api/v1/meters/{id}', { params: { path: { id }, query: { account_id: current.id } } })),
    [id, current.id],
  );
  useEffect(() => {
    document.title = 'Edit meter · Utility Management Console';
  }, []);
  const save = async (data: FormData) => {
    await read(
      api.PUT('/api/v1/meters/{id}', {
        params: { path: { id } },
        body: { account_id: current.id, ...meterFields(data) },
      }),
    );
    navigate(`/meters/${id}`);
  };
  return (
    <Async resource={meter} label="Loading the meter…">
      {(m) => (
        <>
          <p style={{ margin: '0 0 0.5rem' }}>
            <Link href={`/meters/${id}`}>‹ {m.meter_sn}</Link>
          </p>
          <h1>Edit meter {m.meter_sn}</h1>
          <Async resource={choices} label="Loading…">
            {({ blocks, tariffs }) => (
              <SetupForm label="Edit meter" submit="Save meter" onSubmit={save}>
                <MeterFields meter={m} blocks={blocks} tariffs={tariffs} blockId={m.building_block_id} />
              </SetupForm>
            )}
          </Async>
        </>
      )}
    </Async>
  );
}
