import type { Source } from '../../db/energy-sources.ts';
import type { Executor } from '../../db/types.ts';
import { assertOwned } from '../../http/access-guard.ts';
import { notFound } from '../../http/errors.ts';
import type { BucketTotals } from './aggregates.repository.ts';
import { buildingSourcesRepository as repo } from './building-sources.repository.ts';
import { isElectricityMeter } from './meter-checks.ts';
import { bucketPoints, type ProfileBuckets } from './profile-buckets.ts';
import type { EnergyFlows } from './totals.ts';

/** A source of a building's energy profile: one with an electricity meter in the dashboard config. */
interface MeteredSource {
  source: Source;
  meterId: number;
}

/**
 * The sources of the block's dashboard config that have an electricity meter (another meter has
 * no electricity readings): 404 for an unknown block, 403 for another organization's, 404 when
 * the block has no config. The caller has checked access to accountId.
 */
export async function meteredSources(db: Executor, accountId: string, blockId: number): Promise<MeteredSource[]> {
  assertOwned(await repo.findBlock(db, blockId), accountId, 'Building block');
  const rows = await repo.sourceMeters(db, accountId, blockId);
  if (rows.length === 0) throw notFound('Dashboard config');
  return rows.flatMap(({ source, meter_id, meter_type }) =>
    meter_id !== null && meter_type !== null && isElectricityMeter({ meter_type })
      ? [{ source, meterId: meter_id }]
      : [],
  );
}

const energyOf = (totals: EnergyFlows | undefined) => ({
  import_kwh: totals?.import_kwh ?? 0,
  export_kwh: totals?.export_kwh ?? 0,
  net_kwh: totals?.net_kwh ?? 0,
});

/**
 * One point per bucket with readings of any source (every bucket with fill), each giving every
 * source's energy in it (zeros for a source without readings there).
 */
export function sourcePoints(
  buckets: ProfileBuckets,
  rows: readonly BucketTotals<EnergyFlows>[],
  sources: readonly MeteredSource[],
  fill: boolean,
) {
  const perBucket = new Map<number, Map<number, EnergyFlows>>();
  for (const { index, meterId, totals } of rows) {
    const meters = perBucket.get(index) ?? new Map<number, EnergyFlows>();
    perBucket.set(index, meters.set(meterId, totals));
  }
  return bucketPoints(buckets, perBucket, fill, (ts, label, meters) => ({
    ts,
    label,
    sources: Object.fromEntries(sources.map(({ source, meterId }) => [source, energyOf(meters?.get(meterId))])),
  }));
}
