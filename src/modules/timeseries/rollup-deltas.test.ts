import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kiloToMicro } from './micro-units.ts';
import { ReadingBatch } from './readings.ts';
import { type RollupRow, rollupDeltas } from './rollup-deltas.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const START = Date.UTC(2026, 0, 1);

/** The rows of readings per (meter, bucket of width), computed one reading at a time. */
function expectedRows(readings: { meter: number; ts: number; value: number }[], width: number): RollupRow[] {
  const rows = new Map<string, RollupRow>();
  for (const { meter, ts, value } of readings) {
    // Derived as ReadingBatch.append does at 15 minutes: mean power, apparent power from it and the reactive power.
    const power = (value * 60) / 15;
    const kvar = ((value / 2) * 60) / 15;
    const kva = Math.sqrt(power * power + kvar * kvar);
    const bucket_start = Math.floor(ts / width) * width;
    const key = `${meter}:${bucket_start}`;
    const row = rows.get(key) ?? {
      meter_id: meter,
      bucket_start,
      import_uwh: 0,
      export_uwh: 0,
      uvarh: 0,
      readings: 0,
      sum_power_uw: 0,
      max_power_kw: 0,
      sum_uva: 0,
      max_kva: 0,
    };
    row.import_uwh = Number(row.import_uwh) + kiloToMicro(value);
    row.uvarh = Number(row.uvarh) + kiloToMicro(value / 2);
    row.readings++;
    row.sum_power_uw = Number(row.sum_power_uw) + kiloToMicro(power);
    row.max_power_kw = Math.max(row.max_power_kw, power);
    row.sum_uva = Number(row.sum_uva) + kiloToMicro(kva);
    row.max_kva = Math.max(row.max_kva, kva);
    rows.set(key, row);
  }
  return [...rows.values()];
}

const byKey = (rows: RollupRow[]) =>
  [...rows].sort((a, b) => a.meter_id - b.meter_id || a.bucket_start - b.bucket_start);

describe('rollupDeltas', () => {
  const reading = fc.record({
    meter: fc.integer({ min: 1, max: 3 }),
    slot: fc.integer({ min: 0, max: 4 * 96 }),
    value: fc.integer({ min: 0, max: 5000 }).map((n) => n / 1000),
  });
  const readings = fc.uniqueArray(reading, { selector: (r) => `${r.meter}:${r.slot}`, minLength: 1, maxLength: 200 });

  it('sums each hour and day of a batch, whether or not its meters come in order', () => {
    fc.assert(
      fc.property(readings, fc.boolean(), (given, sorted) => {
        const list = given.map((r) => ({ meter: r.meter, ts: START + r.slot * 15 * 60_000, value: r.value }));
        if (sorted) list.sort((a, b) => a.meter - b.meter || a.ts - b.ts);
        const batch = new ReadingBatch();
        for (const r of list) batch.append({ id: r.meter, interval_minutes: 15 }, r.ts, r.value, 0, r.value / 2);
        const { hourly, daily } = rollupDeltas(batch);
        expect(byKey(hourly)).toEqual(byKey(expectedRows(list, HOUR_MS)));
        expect(byKey(daily)).toEqual(byKey(expectedRows(list, DAY_MS)));
      }),
      { numRuns: 500 },
    );
  });
});
