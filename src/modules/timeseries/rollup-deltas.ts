import { addMicro, type Micro, toMicro } from './micro-units.ts';
import type { StoredReading } from './readings.ts';

/** One row of readings_hourly or readings_daily (ROLLUP_COLUMNS); bucket_start in ms since 1970 UTC. */
export interface RollupRow {
  meter_id: number;
  bucket_start: number;
  import_uwh: Micro;
  export_uwh: Micro;
  uvarh: Micro;
  readings: number;
  sum_power_uw: Micro;
  max_power_kw: number;
  sum_uva: Micro;
  max_kva: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A reading as a rollup of one (its bucket set by the caller). */
function rollupOfReading(reading: StoredReading, bucketStart: number): RollupRow {
  return {
    meter_id: reading.meter_id,
    bucket_start: bucketStart,
    import_uwh: toMicro(reading.import_kwh),
    export_uwh: toMicro(reading.export_kwh),
    uvarh: toMicro(reading.kvarh),
    readings: 1,
    sum_power_uw: toMicro(reading.power_kw),
    max_power_kw: reading.power_kw,
    sum_uva: toMicro(reading.kva),
    max_kva: reading.kva,
  };
}

/** Adds into total what a rollup row of the same columns holds (COMBINE_ROLLUPS in JavaScript). */
function add(total: RollupRow, part: Omit<RollupRow, 'meter_id' | 'bucket_start'>): void {
  total.import_uwh = addMicro(total.import_uwh, part.import_uwh);
  total.export_uwh = addMicro(total.export_uwh, part.export_uwh);
  total.uvarh = addMicro(total.uvarh, part.uvarh);
  total.readings += part.readings;
  total.sum_power_uw = addMicro(total.sum_power_uw, part.sum_power_uw);
  total.max_power_kw = Math.max(total.max_power_kw, part.max_power_kw);
  total.sum_uva = addMicro(total.sum_uva, part.sum_uva);
  total.max_kva = Math.max(total.max_kva, part.max_kva);
}

interface Grouping<T> {
  meterOf(item: T): number;
  timeOf(item: T): number;
  /** A new row of the bucket starting at bucketStart, holding item. */
  start(item: T, bucketStart: number): RollupRow;
  add(total: RollupRow, item: T): void;
}

/** Items combined per (meter, bucket of width ms); consecutive items of one bucket cost no lookup. */
function group<T>(items: readonly T[], width: number, grouping: Grouping<T>): RollupRow[] {
  const byKey = new Map<string, RollupRow>();
  let current: RollupRow | undefined;
  for (const item of items) {
    const meterId = grouping.meterOf(item);
    const bucketStart = Math.floor(grouping.timeOf(item) / width) * width;
    if (current?.meter_id === meterId && current.bucket_start === bucketStart) {
      grouping.add(current, item);
      continue;
    }
    const key = `${meterId}:${bucketStart}`;
    current = byKey.get(key);
    if (current) grouping.add(current, item);
    else {
      current = grouping.start(item, bucketStart);
      byKey.set(key, current);
    }
  }
  return [...byKey.values()];
}

const READINGS: Grouping<StoredReading> = {
  meterOf: (reading) => reading.meter_id,
  timeOf: (reading) => reading.ts.getTime(),
  start: rollupOfReading,
  add: (total, reading) => add(total, rollupOfReading(reading, 0)),
};

const HOURS: Grouping<RollupRow> = {
  meterOf: (row) => row.meter_id,
  timeOf: (row) => row.bucket_start,
  start: (row, bucketStart) => ({ ...row, bucket_start: bucketStart }),
  add,
};

/**
 * What readings that are all new add to the hourly and daily rollups: their rows combined per
 * meter and hour, and the hours per meter and day, exactly as the database combines them (sums of
 * the same integers, maxima of the same doubles). Adding these to the stored rows gives the rows
 * that recomputing from all readings would give.
 */
export function rollupDeltas(readings: readonly StoredReading[]): { hourly: RollupRow[]; daily: RollupRow[] } {
  const hourly = group(readings, HOUR_MS, READINGS);
  return { hourly, daily: group(hourly, DAY_MS, HOURS) };
}
