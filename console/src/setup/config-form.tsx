import { useEffect, useState } from 'react';
import type { BillSource, DashboardConfig, Meter, Tariff } from '../api/models.ts';
import { ENERGY_SOURCES } from '../api/models.ts';
import { Async } from '../components/status.tsx';
import { titleCase } from '../lib/format.ts';
import { measuresSource, meterLabel } from '../lib/meters.ts';
import { Link, navigate } from '../lib/router.tsx';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { allBlocks, allMeters } from './blocks.ts';
import { type ConfigChanges, configOf, configPrefix, saveConfig } from './dashboard-config.ts';
import { Choice, Refusal, useAction } from './form-kit.tsx';
import { allTariffs, tariffOptions } from './tariff-options.ts';

type SourceChoice = { meter: string; tariff: string };

/** The sources the form configures: the energy sources, then the water supply. */
const CONFIG_SOURCES: readonly BillSource[] = [...ENERGY_SOURCES, 'water'];

/** The tariffs that may price a source: water tariffs the water supply, the others the rest. */
const pricesSource = (source: BillSource, tariff: Tariff) => (source === 'water') === (tariff.meter_type === 'WATER');

const idText = (id: number | null | undefined) => (id === null || id === undefined ? '' : String(id));

function SourceFields({
  source,
  choice,
  meters,
  tariffs,
  onChange,
}: {
  source: BillSource;
  choice: SourceChoice;
  meters: Meter[];
  tariffs: Tariff[];
  onChange: (choice: SourceChoice) => void;
}) {
  const meter = meters.find((m) => String(m.id) === choice.meter);
  const meterTariff = tariffs.find((t) => t.id === meter?.tariff_id);
  const name = titleCase(source);
  const prefix = configPrefix(source);
  return (
    <fieldset className="source">
      <legend>{name}</legend>
      <Choice
        label={`${name} meter`}
        name={`${prefix}_meter_id`}
        options={[
          { value: '', label: 'None' },
          // The meters of the source's type, and the one it has (were it of another).
          ...meters
            .filter((m) => measuresSource(source, m) || String(m.id) === choice.meter)
            .map((m) => ({ value: String(m.id), label: meterLabel(m) })),
        ]}
        value={choice.meter}
        onChange={(e) => onChange({ ...choice, meter: e.target.value })}
      />
      <div>
        <Choice
          label={`${name} tariff`}
          name={`${prefix}_tariff_id`}
          options={tariffOptions(tariffs.filter((t) => pricesSource(source, t) || String(t.id) === choice.tariff))}
          value={choice.tariff}
          onChange={(e) => onChange({ ...choice, tariff: e.target.value })}
        />
        {meterTariff && String(meterTariff.id) !== choice.tariff && (
          <p className="hint">
            The meter's own tariff is {meterTariff.name}.{' '}
            <button
              type="button"
              className="secondary"
              onClick={() => onChange({ ...choice, tariff: String(meterTariff.id) })}
            >
              Use the meter's tariff for {name.toLowerCase()}
            </button>
          </p>
        )}
      </div>
    </fieldset>
  );
}

function ConfigForm({
  blockId,
  config,
  meters,
  tariffs,
}: {
  blockId: number;
  config: DashboardConfig | null;
  meters: Meter[];
  tariffs: Tariff[];
}) {
  const { current } = useOrganization();
  const [choices, setChoices] = useState(
    () =>
      Object.fromEntries(
        CONFIG_SOURCES.map((s) => [
          s,
          {
            meter: idText(config?.[`${configPrefix(s)}_meter_id`]),
            tariff: idText(config?.[`${configPrefix(s)}_tariff_id`]),
          },
        ]),
      ) as Record<BillSource, SourceChoice>,
  );
  const save = useAction(async () => {
    const changes: ConfigChanges = {};
    for (const s of CONFIG_SOURCES) {
      changes[`${configPrefix(s)}_meter_id`] = choices[s].meter ? Number(choices[s].meter) : null;
      changes[`${configPrefix(s)}_tariff_id`] = choices[s].tariff ? Number(choices[s].tariff) : null;
    }
    await saveConfig(blockId, current.id, changes);
    navigate(`/buildings/${blockId}`);
  });
  return (
    <form
      className="setup-form"
      aria-label="Edit dashboard"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <div className="setup-fields">
        {CONFIG_SOURCES.map((s) => (
          <SourceFields
            key={s}
            source={s}
            choice={choices[s]}
            meters={meters}
            tariffs={tariffs}
            onChange={(choice) => setChoices((all) => ({ ...all, [s]: choice }))}
          />
        ))}
      </div>
      <Refusal error={save.error} />
      <button type="submit" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save dashboard'}
      </button>
    </form>
  );
}

/** "Edit dashboard": per energy source and the water supply, which meter measures it and which tariff prices it. */
export function DashboardConfigPage({ blockId }: { blockId: number }) {
  const { current } = useOrganization();
  const loaded = useResource(async () => {
    const [blocks, meters, tariffs] = await Promise.all([
      allBlocks(current.id),
      allMeters(current.id),
      allTariffs(current.id),
    ]);
    const block = blocks.find((b) => b.id === blockId);
    return { config: block ? await configOf(block, current.id) : null, block, meters, tariffs };
  }, [blockId, current.id]);
  useEffect(() => {
    document.title = 'Edit dashboard · Utility Management Console';
  }, []);
  return (
    <Async resource={loaded} label="Loading the dashboard…">
      {({ config, block, meters, tariffs }) => (
        <>
          <p style={{ margin: '0 0 0.5rem' }}>
            <Link href={`/buildings/${blockId}`}>‹ {block?.name ?? 'Building'}</Link>
          </p>
          <h1>Edit dashboard of {block?.name ?? `block ${blockId}`}</h1>
          <p className="muted">
            For each energy source and the water supply: the meter that measures it and the tariff that prices it. The
            building's cost is priced with these tariffs.
          </p>
          <ConfigForm blockId={blockId} config={config} meters={meters} tariffs={tariffs} />
        </>
      )}
    </Async>
  );
}
