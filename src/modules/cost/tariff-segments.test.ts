import { describe, expect, it } from 'vitest';
import { type PendingTransition, type TariffRecord, tariffSegments } from './tariff-segments.ts';

const d = (day: number) => new Date(Date.UTC(2025, 11, day));
const record = (tariffId: number | null, day: number | null): TariffRecord => ({
  tariff_id: tariffId,
  effective_from: day === null ? null : d(day),
});
const pending = (predecessor: number, successor: number, day: number): PendingTransition => ({
  predecessor_id: predecessor,
  successor_id: successor,
  effective_from: d(day),
});
const segments = (records: TariffRecord[], transitions: PendingTransition[], start = 1, end = 31) =>
  tariffSegments(records, transitions, d(start), d(end)).map((s) => [
    s.tariffId,
    s.start.getUTCDate(),
    s.end.getUTCDate(),
  ]);

describe('tariffSegments', () => {
  it('prices the whole period with the first record, which counts from the beginning of time', () => {
    expect(segments([record(1, null)], [])).toEqual([[1, 1, 31]]);
  });

  it('gives no segment without records, and none for parts without a tariff', () => {
    expect(segments([], [pending(1, 2, 10)])).toEqual([]);
    expect(segments([record(1, null), record(null, 10), record(2, 20)], [])).toEqual([
      [1, 1, 10],
      [2, 20, 31],
    ]);
    expect(segments([record(1, null), record(null, 1)], [])).toEqual([]);
  });

  it('splits at each record inside the period and ignores records before it but the one in force', () => {
    const records = [record(1, null), record(2, 1), record(3, 5), record(4, 12)];
    expect(segments(records, [], 6, 20)).toEqual([
      [3, 6, 12],
      [4, 12, 20],
    ]);
    expect(segments(records, [], 12, 20)).toEqual([[4, 12, 20]]);
  });

  it('joins adjacent parts of one tariff, also across an empty part', () => {
    expect(segments([record(1, null), record(2, 10), record(1, 10), record(1, 15)], [])).toEqual([[1, 1, 31]]);
  });

  it('follows the pending transitions of the current tariff after the last record, chains too', () => {
    const records = [record(1, null), record(2, 5)];
    const transitions = [pending(2, 3, 10), pending(3, 4, 20), pending(1, 9, 7), pending(8, 9, 12)];
    expect(segments(records, transitions)).toEqual([
      [1, 1, 5],
      [2, 5, 10],
      [3, 10, 20],
      [4, 20, 31],
    ]);
  });

  it('takes a pending transition due before the last record as effective from that record, as applying it will', () => {
    expect(segments([record(1, null), record(2, 10)], [pending(2, 3, 4)])).toEqual([
      [1, 1, 10],
      [3, 10, 31],
    ]);
  });

  it('stops a pending chain at a transition due before the one leading to it (applied first, it finds nothing)', () => {
    expect(segments([record(1, null)], [pending(1, 2, 20), pending(2, 3, 10)])).toEqual([
      [1, 1, 20],
      [2, 20, 31],
    ]);
  });

  it('ignores pending transitions after the period and stops at a cycle', () => {
    expect(segments([record(1, null)], [pending(1, 2, 31)])).toEqual([[1, 1, 31]]);
    expect(segments([record(1, null)], [pending(1, 2, 10), pending(2, 1, 20)])).toEqual([
      [1, 1, 10],
      [2, 10, 31],
    ]);
  });
});
