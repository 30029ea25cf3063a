import { describe, expect, it } from 'vitest';
import {
  bucketStarts,
  lastDays,
  lastMonths,
  makeRange,
  queryOfRange,
  rangeAround,
  rangeFromQuery,
  shiftRange,
} from './ranges.ts';

const TZ = 'Africa/Johannesburg';
const date = { year: 2026, month: 11, day: 19 };

describe('chart ranges', () => {
  it('makes a day, an ISO week and a month of local time', () => {
    expect(rangeAround('day', date, TZ)).toMatchObject({
      start: '2026-11-18T22:00:00.000Z',
      end: '2026-11-19T22:00:00.000Z',
      unit: 'hour',
    });
    expect(rangeAround('week', date, TZ)).toMatchObject({
      from: { year: 2026, month: 11, day: 16 },
      to: { year: 2026, month: 11, day: 22 },
      unit: 'hour',
    });
    expect(rangeAround('month', date, TZ)).toMatchObject({
      start: '2026-10-31T22:00:00.000Z',
      end: '2026-11-30T22:00:00.000Z',
      unit: 'day',
    });
  });

  it('moves by a period', () => {
    expect(shiftRange(rangeAround('month', date, TZ), -1).start).toBe('2026-09-30T22:00:00.000Z');
    expect(shiftRange(rangeAround('week', date, TZ), 1).from).toEqual({ year: 2026, month: 11, day: 23 });
  });

  it('reads a custom range from the query, choosing its buckets by its length', () => {
    const read = (query: string) => rangeFromQuery(new URLSearchParams(query), TZ, () => lastDays(7, TZ));
    const short = read('range=custom&from=2026-11-01&to=2026-11-07');
    expect(short).toMatchObject({ kind: 'custom', unit: 'hour', end: '2026-11-07T22:00:00.000Z' });
    expect(read('range=custom&from=2026-11-01&to=2026-11-08').unit).toBe('day');
    expect(read('range=custom&from=2026-01-01&to=2026-11-02').unit).toBe('month');
    expect(queryOfRange(short)).toEqual({ range: 'custom', from: '2026-11-01', to: '2026-11-07', date: undefined });
  });

  it('falls back to today for a custom range it cannot read, to the default for no range', () => {
    const read = (query: string) =>
      rangeFromQuery(new URLSearchParams(query), TZ, () => rangeAround('month', date, TZ));
    expect(read('range=custom&from=2026-11-05&to=2026-11-01').kind).toBe('day');
    expect(read('range=year').kind).toBe('month');
    expect(lastDays(7, TZ).unit).toBe('hour');
  });
});

describe('bucket starts', () => {
  const iso = (starts: number[]) => starts.map((t) => new Date(t).toISOString());

  it('are the hours of a day, the local days of a month, the months of a long range', () => {
    expect(bucketStarts(rangeAround('day', date, TZ))).toHaveLength(24);
    const days = iso(bucketStarts(rangeAround('month', date, TZ)));
    expect(days).toHaveLength(30);
    expect(days[1]).toBe('2026-11-01T22:00:00.000Z');
    const months = makeRange('custom', { year: 2026, month: 1, day: 15 }, { year: 2026, month: 11, day: 2 }, TZ);
    expect(iso(bucketStarts(months)).slice(0, 2)).toEqual(['2026-01-14T22:00:00.000Z', '2026-01-31T22:00:00.000Z']);
  });

  it('follow daylight saving: 23 hours on a spring day', () => {
    expect(bucketStarts(rangeAround('day', { year: 2025, month: 3, day: 30 }, 'Europe/Berlin'))).toHaveLength(23);
  });
});

describe('the last months', () => {
  it('are whole months of the zone, the current one up to the last whole hour', () => {
    const now = Date.parse('2026-11-22T10:17:00Z');
    expect(lastMonths(2, TZ, now)).toEqual([
      { month: '2026-10', start: '2026-09-30T22:00:00.000Z', end: '2026-10-31T22:00:00.000Z' },
      { month: '2026-11', start: '2026-10-31T22:00:00.000Z', end: '2026-11-22T10:00:00.000Z' },
    ]);
  });
});
