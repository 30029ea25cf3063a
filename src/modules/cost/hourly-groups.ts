import { addMicro, type Micro } from '../timeseries/micro-units.ts';
import type { HourlyAggregate, HourlyPlan } from './engine/index.ts';

const HOUR_MS = 3_600_000;

/** One hourly rollup of a meter, as stored: sums in micro-units (µWh, µvarh). */
export interface HourlyRow {
  /** Hours since 1970 of the bucket's start. */
  hour: number;
  import_uwh: number;
  export_uwh: number;
  uvarh: number;
  readings: number;
  max_kva: number;
}

interface Group {
  key: number;
  in_period: boolean;
  import: Micro;
  export: Micro;
  kvarh: Micro;
  readings: number;
  max_kva: number;
}

/** µ-units to millionths of the kilo-unit, as PostgreSQL's numeric `sum / 1000` gives them (then read as a double). */
function millionths(micro: Micro): number {
  if (typeof micro === 'number') return micro / 1000;
  const sign = micro < 0n ? '-' : '';
  const magnitude = micro < 0n ? -micro : micro;
  return Number(`${sign}${magnitude / 1000n}.${String(magnitude % 1000n).padStart(3, '0')}`);
}

/**
 * The aggregates the repository's hourlyAggregates gives for `plan`, from the meter's hourly rows
 * read once for several plans (several tariffs over the same period) or kept by month (in parts,
 * each part's rows ascending, rows of other hours left out): the rows of [plan.from,
 * plan.hoursEnd) summed by plan key and by whether they fall before plan.hoursStart; an hour's
 * readings count at most the meter's intervals of an hour, as there.
 */
export function groupHourlyRows(plan: HourlyPlan, rowsInParts: readonly (readonly HourlyRow[])[]): HourlyAggregate[] {
  const endHour = plan.hoursEnd.getTime() / HOUR_MS;
  const periodHour = plan.hoursStart.getTime() / HOUR_MS;
  const groups = new Map<number, Group>();
  for (const rows of rowsInParts) {
    for (const row of rows) {
      if (row.hour < plan.firstHour || row.hour >= endHour) continue;
      const key = plan.hourKeys[row.hour - plan.firstHour]!;
      const inPeriod = row.hour >= periodHour;
      const id = key * 2 + (inPeriod ? 1 : 0);
      const group = groups.get(id);
      if (!group) {
        groups.set(id, {
          key,
          in_period: inPeriod,
          import: row.import_uwh,
          export: row.export_uwh,
          kvarh: row.uvarh,
          readings: Math.min(row.readings, plan.intervalsPerHour),
          max_kva: row.max_kva,
        });
        continue;
      }
      group.import = addMicro(group.import, row.import_uwh);
      group.export = addMicro(group.export, row.export_uwh);
      group.kvarh = addMicro(group.kvarh, row.uvarh);
      group.readings += Math.min(row.readings, plan.intervalsPerHour);
      group.max_kva = Math.max(group.max_kva, row.max_kva);
    }
  }
  return [...groups.values()].map((group) => ({
    key: group.key,
    in_period: group.in_period,
    import_micro: millionths(group.import),
    export_micro: millionths(group.export),
    kvarh_micro: millionths(group.kvarh),
    readings: group.readings,
    max_kva: group.max_kva,
  }));
}
