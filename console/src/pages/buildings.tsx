import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { buildingEnergyProfile } from '../adapters/building-energy.ts';
import { api, readAll } from '../api/client.ts';
import {
  type BuildingBlock,
  type DashboardConfig,
  ENERGY_SOURCES,
  type EnergySource,
  type Gateway,
  type Meter,
} from '../api/models.ts';
import { EnergyChart, seriesOf } from '../components/energy-chart.tsx';
import { MonthlyCostSection } from '../components/monthly-cost.tsx';
import { RangePicker } from '../components/range-picker.tsx';
import { Async, Loading } from '../components/status.tsx';
import { titleCase } from '../lib/format.ts';
import { isSilent } from '../lib/gateways.ts';
import { meterTypeLabel } from '../lib/labels.ts';
import { meterLabel } from '../lib/meters.ts';
import { lastWeekOfDays, queryOfRange, type Range, rangeFromQuery } from '../lib/ranges.ts';
import { Link, setQuery, useLocation } from '../lib/router.tsx';
import { isoMonth } from '../lib/time.ts';
import { useResource } from '../lib/use-resource.ts';
import { useOrganization } from '../organization.tsx';
import { configOf } from '../setup/dashboard-config.ts';
import { DashboardBlock } from '../setup/meter-tariff-offer.tsx';
import { WaterSection } from './building-water.tsx';

const WIDE = window.matchMedia('(min-width: 900px)');

interface Tree {
  blocks: BuildingBlock[];
  children: Map<number | null, BuildingBlock[]>;
  /** Each block's meters. */
  meters: Map<number, Meter[]>;
  /** The organization's gateways: which of its meters' readings have stopped coming. */
  gateways: Gateway[];
}

function treeOf(blocks: BuildingBlock[], meters: Meter[], gateways: Gateway[]): Tree {
  const ids = new Set(blocks.map((b) => b.id));
  const children = new Map<number | null, BuildingBlock[]>();
  for (const block of [...blocks].sort((a, b) => a.name.localeCompare(b.name))) {
    const parent = block.parent_id !== null && ids.has(block.parent_id) ? block.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), block]);
  }
  const byBlock = new Map<number, Meter[]>();
  for (const meter of meters)
    byBlock.set(meter.building_block_id, [...(byBlock.get(meter.building_block_id) ?? []), meter]);
  return { blocks, children, meters: byBlock, gateways };
}

/** True when the block or a block below it has a meter: only such a block can have a dashboard. */
function hasMeters(tree: Tree, id: number): boolean {
  return (tree.meters.get(id)?.length ?? 0) > 0 || (tree.children.get(id) ?? []).some((c) => hasMeters(tree, c.id));
}

function Branch({ tree, parent, selected }: { tree: Tree; parent: number | null; selected: number }) {
  const blocks = tree.children.get(parent) ?? [];
  if (blocks.length === 0) return null;
  return (
    <ul className={parent === null ? 'tree' : undefined}>
      {blocks.map((block) => (
        <li key={block.id}>
          <Link href={`/buildings/${block.id}`} aria-current={block.id === selected ? 'page' : undefined}>
            {block.name}
          </Link>
          {(tree.meters.get(block.id)?.length ?? 0) > 0 && (
            <ul>
              {tree.meters.get(block.id)!.map((meter) => (
                <li key={meter.id} className="meter">
                  <Link href={`/meters/${meter.id}`}>⚡ {meterLabel(meter)}</Link>
                </li>
              ))}
            </ul>
          )}
          <Branch tree={tree} parent={block.id} selected={selected} />
        </li>
      ))}
    </ul>
  );
}

/** The range the page's query names (default: the last 7 days), and the query's text. */
function useQueryRange(): [Range, string] {
  const { tz } = useOrganization();
  const { query } = useLocation();
  const queryText = query.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query's text names the range.
  const range = useMemo(() => rangeFromQuery(query, tz, () => lastWeekOfDays(tz)), [queryText, tz]);
  return [range, queryText];
}

/** Energy by source over the range the page's query names. */
function EnergySection({
  blockId,
  range,
  queryText,
  sources,
  onDrawn,
  onSettled,
}: {
  blockId: number;
  range: Range;
  queryText: string;
  /** The sources the block's dashboard config gives a meter. */
  sources: Set<EnergySource>;
  onDrawn: () => void;
  onSettled: () => void;
}) {
  const { current, tz } = useOrganization();
  const profile = useResource(
    () => buildingEnergyProfile(current.id, blockId, range),
    [current.id, blockId, range.start, range.end, range.unit],
  );
  const settled = profile.status !== 'loading';
  useEffect(() => {
    if (settled) onSettled();
  }, [settled, onSettled]);
  return (
    <section aria-labelledby="energy-heading">
      <h2 id="energy-heading">Energy by source</h2>
      <RangePicker key={queryText} range={range} onChange={(r) => setQuery(queryOfRange(r))} />
      <Async resource={profile} label="Loading energy…">
        {(rows) => (
          <EnergyChart
            rows={rows}
            series={seriesOf(sources)}
            range={range}
            title="Energy by source"
            onDrawn={onDrawn}
          />
        )}
      </Async>
      <p className="muted" style={{ fontSize: '0.85rem' }}>
        Times in {tz}. Energy returned to the grid is drawn below zero. Readings up to the start of the current hour,
        where the bills end.
      </p>
    </section>
  );
}

/** The sources a dashboard config gives a meter. */
function sourcesOf(config: DashboardConfig): Set<EnergySource> {
  return new Set(ENERGY_SOURCES.filter((source) => config[`${source}_meter_id`] !== null));
}

/** Marks when the dashboard's charts have first been drawn (measured by the end-to-end tests). */
function useDashboardMarks() {
  const drawn = useRef(new Set<string>());
  return useCallback(
    (chart: string) => () => {
      if (drawn.current.has(chart)) return;
      drawn.current.add(chart);
      performance.mark(`dashboard-${chart}-drawn`);
      if (drawn.current.size === 2) performance.mark('dashboard-drawn');
    },
    [],
  );
}

function Dashboard({ block }: { block: BuildingBlock }) {
  const { current, tz } = useOrganization();
  const marks = useDashboardMarks();
  // The energy chart first: pricing the months takes longer, and the database serves one at a time.
  const [energySettled, setEnergySettled] = useState(false);
  const settle = useCallback(() => setEnergySettled(true), []);
  const config = useResource(() => configOf(block, current.id), [block, current.id]);
  const [range, queryText] = useQueryRange();
  const dashboardBlock = useMemo(
    () => ({ blockId: block.id, configChanged: config.reload }),
    [block.id, config.reload],
  );
  return (
    <Async resource={config} label="Loading the dashboard…">
      {() =>
        config.data ? (
          <DashboardBlock.Provider value={dashboardBlock}>
            <EnergySection
              blockId={block.id}
              range={range}
              queryText={queryText}
              sources={sourcesOf(config.data)}
              onDrawn={marks('energy')}
              onSettled={settle}
            />
            {config.data.water_supply_meter_id !== null && (
              <WaterSection meterId={config.data.water_supply_meter_id} range={range} />
            )}
            {energySettled ? (
              <MonthlyCostSection
                accountId={current.id}
                blockId={block.id}
                blockName={block.name}
                tz={tz}
                chartMonth={isoMonth(range.to)}
                onDrawn={marks('cost')}
              />
            ) : (
              <section aria-labelledby="cost-heading">
                <h2 id="cost-heading">Monthly cost</h2>
                <Loading label="Pricing the months…" />
              </section>
            )}
          </DashboardBlock.Provider>
        ) : (
          <p className="muted">
            No energy dashboard is configured for this block:{' '}
            <Link href={`/buildings/${block.id}/dashboard`}>Edit dashboard</Link> to choose its meters and tariffs.
          </p>
        )
      }
    </Async>
  );
}

/** Entry points to the set-up pages of a block. */
function BlockActions({ block }: { block: BuildingBlock }) {
  const { canWrite } = useOrganization();
  if (!canWrite) return null;
  return (
    <p className="actions">
      <Link className="button secondary" href={`/buildings/${block.id}/edit`}>
        Edit building block
      </Link>
      <Link className="button secondary" href={`/buildings/new?parent=${block.id}`}>
        New building block under {block.name}
      </Link>
      <Link className="button secondary" href={`/buildings/${block.id}/meters/new`}>
        New meter
      </Link>
      <Link className="button secondary" href={`/buildings/${block.id}/dashboard`}>
        Edit dashboard
      </Link>
    </p>
  );
}

/** The gateways of the block's meters that have pushed nothing for more than a day, each with its meters here. */
function SilentGateways({ gateways, meters }: { gateways: Gateway[]; meters: Meter[] }) {
  const now = Date.now();
  const silent = gateways
    .filter((g) => isSilent(g, now))
    .map((g) => ({ gateway: g, meters: meters.filter((m) => g.meter_ids.includes(m.id)) }))
    .filter((s) => s.meters.length > 0);
  return silent.map(({ gateway, meters: theirs }) => (
    <p key={gateway.id} className="notice" data-testid="silent-gateway">
      Gateway {gateway.name} has sent nothing for more than a day: no new readings of{' '}
      {theirs.map(meterLabel).join(', ')}. <Link href="/gateways">Gateways</Link>
    </p>
  ));
}

function BlockDetail({ tree, block }: { tree: Tree; block: BuildingBlock }) {
  const meters = tree.meters.get(block.id) ?? [];
  useEffect(() => {
    document.title = `${block.name} · Utility Management Console`;
  }, [block.name]);
  return (
    <div className="panel">
      <h1>{block.name}</h1>
      <p className="muted" style={{ marginTop: 0 }}>
        {titleCase(block.building_type)} · {block.address}, {block.city}
        {block.area !== null && ` · ${block.area} m²`}
      </p>
      {block.description && <p>{block.description}</p>}
      <BlockActions block={block} />
      <h2>Meters</h2>
      <SilentGateways gateways={tree.gateways} meters={meters} />
      {meters.length === 0 ? (
        <p className="muted">No meters on this block.</p>
      ) : (
        <ul>
          {meters.map((meter) => (
            <li key={meter.id}>
              <Link href={`/meters/${meter.id}`}>{meterLabel(meter)}</Link> · {meterTypeLabel(meter.meter_type)}, every{' '}
              {meter.interval_minutes} minutes
            </li>
          ))}
        </ul>
      )}
      {hasMeters(tree, block.id) ? (
        <Dashboard key={block.id} block={block} />
      ) : (
        <p className="muted">No meters on this block or below it: nothing to chart.</p>
      )}
    </div>
  );
}

/** The building tree with its meters, and the chosen block (else the first) with its dashboard. */
/** The empty state: what to set up first. */
function NoBlocks() {
  const { current, canWrite } = useOrganization();
  return (
    <>
      <h1>Buildings</h1>
      <p>This organization has no building blocks yet.</p>
      {current.is_personal_account && (
        <p>
          {current.name} is your personal account. To set up a company's buildings with others, start with a{' '}
          <Link href="/organizations/new">New organization</Link>.
        </p>
      )}
      {canWrite ? (
        <p className="actions">
          <Link className="button" href="/buildings/new">
            New building block
          </Link>
          {!current.is_personal_account && (
            <Link className="button secondary" href="/organizations/new">
              New organization
            </Link>
          )}
        </p>
      ) : (
        <p className="muted">Only owners and administrators can add building blocks.</p>
      )}
    </>
  );
}

export function BuildingsPage({ id }: { id?: string }) {
  const { current, canWrite } = useOrganization();
  const account_id = current.id;
  const tree = useResource(
    async () =>
      treeOf(
        ...(await Promise.all([
          readAll<BuildingBlock>((page) =>
            api.GET('/api/v1/building_blocks', { params: { query: { account_id, page, limit: 100 } } }),
          ),
          readAll<Meter>((page) => api.GET('/api/v1/meters', { params: { query: { account_id, page, limit: 100 } } })),
          readAll<Gateway>((page) =>
            api.GET('/api/v1/gateways', { params: { query: { account_id, page, limit: 100 } } }),
          ),
        ])),
      ),
    [account_id],
  );

  return (
    <Async resource={tree} label="Loading buildings…">
      {(loaded) => {
        const block = loaded.blocks.find((b) => b.id === Number(id)) ?? loaded.children.get(null)?.[0];
        if (!block) return <NoBlocks />;
        return (
          <div className="split">
            <nav aria-label="Building tree" className="panel">
              {/* Open beside the dashboard on a wide screen; on a phone, folded above it. */}
              <details open={WIDE.matches}>
                <summary>
                  <h2 style={{ display: 'inline', fontSize: '1.1rem' }}>Buildings</h2>
                </summary>
                <Branch tree={loaded} parent={null} selected={block.id} />
                {canWrite && <Link href="/buildings/new">New building block</Link>}
              </details>
            </nav>
            <BlockDetail tree={loaded} block={block} />
          </div>
        );
      }}
    </Async>
  );
}
