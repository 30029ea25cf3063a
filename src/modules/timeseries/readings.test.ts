import { describe, expect, it } from 'vitest';
import { ReadingBatch } from './readings.ts';

const METER_A = { id: 1, interval_minutes: 30 };
const METER_B = { id: 2, interval_minutes: 15 };

/** The batch as plain rows, to compare. */
function rows(batch: ReadingBatch) {
  return Array.from({ length: batch.length }, (_, i) => [
    batch.meterId[i],
    batch.ts[i],
    batch.importKwh[i],
    batch.exportKwh[i],
    batch.kvarh[i],
    batch.powerKw[i],
    batch.kva[i],
  ]);
}

describe('ReadingBatch', () => {
  it('derives what a reading omits (undefined or NaN) and keeps what it gives', () => {
    const batch = new ReadingBatch(1);
    batch.append(METER_A, 0, 1.5, undefined, 1);
    batch.append(METER_B, 0, 1, Number.NaN, Number.NaN, 7, 9);
    // 30-minute meter: power 1.5 * 60 / 30 = 3 kW, reactive 1 * 60 / 30 = 2 kvar, kva sqrt(9 + 4).
    expect(rows(batch)).toEqual([
      [1, 0, 1.5, 0, 1, 3, Math.sqrt(13)],
      [2, 0, 1, 0, 0, 7, 9],
    ]);
  });

  it('grows past its first capacity', () => {
    const batch = new ReadingBatch(2);
    for (let i = 0; i < 100; i++) batch.push(1, i, i, 0, 0, 0, 0);
    expect(batch.length).toBe(100);
    expect(batch.importKwh[99]).toBe(99);
  });

  it('keeps the last reading of a repeated (meter, ts) in the place of its first', () => {
    const batch = new ReadingBatch();
    batch.push(1, 0, 1, 0, 0, 0, 0);
    batch.push(2, 0, 2, 0, 0, 0, 0);
    batch.push(1, 0, 3, 0, 0, 0, 0);
    batch.push(1, 60, 4, 0, 0, 0, 0);
    expect(rows(batch.lastPerKey()).map((r) => [r[0], r[1], r[2]])).toEqual([
      [1, 0, 3],
      [2, 0, 2],
      [1, 60, 4],
    ]);
  });

  it('returns a batch in order as it is', () => {
    const batch = new ReadingBatch();
    batch.push(1, 0, 1, 0, 0, 0, 0);
    batch.push(1, 60, 2, 0, 0, 0, 0);
    batch.push(2, 0, 3, 0, 0, 0, 0);
    expect(batch.lastPerKey()).toBe(batch);
    expect(batch.distinctMeterIds()).toEqual([1, 2]);
  });

  it('keeps only the readings of the given meters', () => {
    const batch = new ReadingBatch();
    batch.push(1, 0, 1, 0, 0, 0, 0);
    batch.push(2, 0, 2, 0, 0, 0, 0);
    expect(rows(batch.only(new Set([2])))).toEqual([[2, 0, 2, 0, 0, 0, 0]]);
    expect(batch.only(new Set([1, 2]))).toBe(batch);
  });
});
