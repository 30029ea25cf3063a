import type { SegmentSource } from './range-plan.ts';
import type { Measure } from './totals.ts';

/** The columns of readings_hourly and readings_daily. */
export const ROLLUP_COLUMNS =
  'meter_id, bucket_start, import_uwh, export_uwh, uvarh, readings, sum_power_uw, max_power_kw, sum_uva, max_kva';

/** A reading's value in integer micro-units (1e-9 of the unit): the exact quantity every sum adds. */
export const micro = (column: string) => `round(${column} * 1e9)::int8`;

/** Raw readings in the shape of a rollup row: each reading is a rollup of one. */
const RAW_AS_ROLLUP = `meter_id, ts AS bucket_start, ${micro('import_kwh')} AS import_uwh,
  ${micro('export_kwh')} AS export_uwh, ${micro('kvarh')} AS uvarh, 1 AS readings,
  ${micro('power_kw')} AS sum_power_uw, power_kw AS max_power_kw, ${micro('kva')} AS sum_uva, kva AS max_kva`;

/** How each measure of rollup-shaped rows combines: the same whatever the grouping of the readings below. */
const COMBINE: Record<Measure, 'sum' | 'max'> = {
  import_uwh: 'sum',
  export_uwh: 'sum',
  uvarh: 'sum',
  readings: 'sum',
  sum_power_uw: 'sum',
  max_power_kw: 'max',
  sum_uva: 'sum',
  max_kva: 'max',
};

/** The aggregates combining rollup-shaped rows into one, for these measures. */
export function combineRollups(measures: readonly Measure[]): string {
  return measures.map((measure) => `${COMBINE[measure]}(${measure}) AS ${measure}`).join(', ');
}

/** Every measure combined: a rollup row from rollup-shaped rows. */
export const COMBINE_ROLLUPS = combineRollups(Object.keys(COMBINE) as Measure[]);

/** For each source: the select list and table giving rollup-shaped rows, and its time column. */
export const ROLLUP_SOURCES: Record<SegmentSource, { select: string; time: string }> = {
  raw: { select: `SELECT ${RAW_AS_ROLLUP} FROM readings`, time: 'ts' },
  hourly: { select: `SELECT ${ROLLUP_COLUMNS} FROM readings_hourly`, time: 'bucket_start' },
  daily: { select: `SELECT ${ROLLUP_COLUMNS} FROM readings_daily`, time: 'bucket_start' },
};
