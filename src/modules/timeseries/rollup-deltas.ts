import { addMicro, kiloToMicro, type Micro } from './micro-units.ts';
import type { ReadingBatch } from './readings.ts';

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

/** Reading i of a batch as a rollup of one, in the bucket starting at bucketStart. */
function rollupOfReading(batch: ReadingBatch, i: number, bucketStart: number): RollupRow {
  return {
    meter_id: batch.meterId[i]!,
    bucket_start: bucketStart,
    import_uwh: kiloToMicro(batch.importKwh[i]!),
    export_uwh: kiloToMicro(batch.exportKwh[i]!),
    uvarh: kiloToMicro(batch.kvarh[i]!),
    readings: 1,
    sum_power_uw: kiloToMicro(batch.powerKw[i]!),
    max_power_kw: batch.powerKw[i]!,
    sum_uva: kiloToMicro(batch.kva[i]!),
    max_kva: batch.kva[i]!,
  };
}

/** Adds measures into total (COMBINE_ROLLUPS in JavaScript). */
function accumulate(
  total: RollupRow,
  importUwh: Micro,
  exportUwh: Micro,
  uvarh: Micro,
  readings: number,
  sumPowerUw: Micro,
  maxPowerKw: number,
  sumUva: Micro,
  maxKva: number,
): void {
  total.import_uwh = addMicro(total.import_uwh, importUwh);
  total.export_uwh = addMicro(total.export_uwh, exportUwh);
  total.uvarh = addMicro(total.uvarh, uvarh);
  total.readings += readings;
  total.sum_power_uw = addMicro(total.sum_power_uw, sumPowerUw);
  total.max_power_kw = Math.max(total.max_power_kw, maxPowerKw);
  total.sum_uva = addMicro(total.sum_uva, sumUva);
  total.max_kva = Math.max(total.max_kva, maxKva);
}

/** How the items of a grouping are read: by index, without an object per item. */
interface Items {
  count: number;
  meterOf(i: number): number;
  timeOf(i: number): number;
  /** A new row of the bucket starting at bucketStart, holding item i. */
  rowOf(i: number, bucketStart: number): RollupRow;
  addTo(total: RollupRow, i: number): void;
}

/**
 * Items combined per (meter, bucket of width ms). Consecutive items of one bucket cost no lookup;
 * when the items are in order (each meter's consecutive and in time order), a bucket left is never
 * seen again and no lookup is needed at all.
 */
function group(items: Items, width: number, inOrder: boolean): RollupRow[] {
  const rows: RollupRow[] = [];
  // Per meter, its rows by bucket number (small integers: cheap keys).
  const byMeter = inOrder ? undefined : new Map<number, Map<number, RollupRow>>();
  let current: RollupRow | undefined;
  for (let i = 0; i < items.count; i++) {
    const meterId = items.meterOf(i);
    const bucket = Math.floor(items.timeOf(i) / width);
    if (current?.meter_id !== meterId || current.bucket_start !== bucket * width) {
      const existing = byMeter?.get(meterId)?.get(bucket);
      if (!existing) {
        current = items.rowOf(i, bucket * width);
        rows.push(current);
        if (byMeter) {
          const buckets = byMeter.get(meterId) ?? new Map<number, RollupRow>();
          byMeter.set(meterId, buckets.set(bucket, current));
        }
        continue;
      }
      current = existing;
    }
    items.addTo(current, i);
  }
  return rows;
}

/**
 * What readings that are all new add to the hourly and daily rollups: their rows combined per
 * meter and hour, and the hours per meter and day, exactly as the database combines them (sums of
 * the same integers, maxima of the same doubles). Adding these to the stored rows gives the rows
 * that recomputing from all readings would give.
 */
export function rollupDeltas(batch: ReadingBatch): { hourly: RollupRow[]; daily: RollupRow[] } {
  const inOrder = batch.isInOrder();
  const hourly = group(
    {
      count: batch.length,
      meterOf: (i) => batch.meterId[i]!,
      timeOf: (i) => batch.ts[i]!,
      rowOf: (i, bucketStart) => rollupOfReading(batch, i, bucketStart),
      addTo: (total, i) =>
        accumulate(
          total,
          kiloToMicro(batch.importKwh[i]!),
          kiloToMicro(batch.exportKwh[i]!),
          kiloToMicro(batch.kvarh[i]!),
          1,
          kiloToMicro(batch.powerKw[i]!),
          batch.powerKw[i]!,
          kiloToMicro(batch.kva[i]!),
          batch.kva[i]!,
        ),
    },
    HOUR_MS,
    inOrder,
  );
  const daily = group(
    {
      count: hourly.length,
      meterOf: (i) => hourly[i]!.meter_id,
      timeOf: (i) => hourly[i]!.bucket_start,
      rowOf: (i, bucketStart) => ({ ...hourly[i]!, bucket_start: bucketStart }),
      addTo: (total, i) => {
        const h = hourly[i]!;
        accumulate(
          total,
          h.import_uwh,
          h.export_uwh,
          h.uvarh,
          h.readings,
          h.sum_power_uw,
          h.max_power_kw,
          h.sum_uva,
          h.max_kva,
        );
      },
    },
    DAY_MS,
    // Hours come in the order of their readings.
    inOrder,
  );
  return { hourly, daily };
}
