import type { SegmentSource } from './range-plan.ts';

/** The columns of readings_hourly and readings_daily. */
export const ROLLUP_COLUMNS =
  'meter_id, bucket_start, import_kwh, export_kwh, kvarh, readings, sum_power_kw, max_power_kw, sum_kva, max_kva';

/** Raw readings in the shape of a rollup row: each reading is a rollup of one. */
const RAW_AS_ROLLUP = `meter_id, ts AS bucket_start, import_kwh::numeric AS import_kwh,
  export_kwh::numeric AS export_kwh, kvarh::numeric AS kvarh, 1 AS readings,
  power_kw::numeric AS sum_power_kw, power_kw AS max_power_kw, kva::numeric AS sum_kva, kva AS max_kva`;

/** Combines rollup-shaped rows into one: the same whatever the grouping of the readings below. */
export const COMBINE_ROLLUPS = `sum(import_kwh) AS import_kwh, sum(export_kwh) AS export_kwh, sum(kvarh) AS kvarh,
  sum(readings) AS readings, sum(sum_power_kw) AS sum_power_kw, max(max_power_kw) AS max_power_kw,
  sum(sum_kva) AS sum_kva, max(max_kva) AS max_kva`;

/** For each source: the select list and table giving rollup-shaped rows, and its time column. */
export const ROLLUP_SOURCES: Record<SegmentSource, { select: string; time: string }> = {
  raw: { select: `SELECT ${RAW_AS_ROLLUP} FROM readings`, time: 'ts' },
  hourly: { select: `SELECT ${ROLLUP_COLUMNS} FROM readings_hourly`, time: 'bucket_start' },
  daily: { select: `SELECT ${ROLLUP_COLUMNS} FROM readings_daily`, time: 'bucket_start' },
};
