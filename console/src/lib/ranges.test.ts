import { describe, expect, it } from 'vitest';
import {
  bucketStarts,
  lastMonths,
  lastWeekOfDays,
  makeRange,
  queryOfRange,
  rangeAround,
  rangeFromQuery,
  readingsEnd,
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
    const read = (query: string) => rangeFromQuery(new URLSearchParams(query), TZ, () => lastWeekOfDays(TZ));
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
    expect(lastWeekOfDays(TZ)).toMatchObject({ kind: 'last7', unit: 'hour' });
  });

  it('makes the last 7 days up to a day, moves them by 7 days, and names them in the query by their last day', () => {
    const recent = rangeAround('last7', date, TZ);
    expect(recent).toMatchObject({
      kind: 'last7',
      from: { year: 2026, month: 11, day: 13 },
      to: date,
      start: '2026-11-12T22:00:00.000Z',
      end: '2026-11-19T22:00:00.000Z',
      unit: 'hour',
    });
    expect(shiftRange(recent, -1).to).toEqual({ year: 2026, month: 11, day: 12 });
    expect(queryOfRange(recent)).toEqual({ range: 'last7', date: '2026-11-19', from: undefined, to: undefined });
    expect(
      rangeFromQuery(new URLSearchParams('range=last7&date=2026-11-19'), TZ, () => rangeAround('day', date, TZ)),
    ).toEqual(recent);
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

describe('the end of the readings a chart asks for', () => {
  const week = rangeAround('week', date, TZ);

  it('is the start of the current hour while the range reaches into the future, as a bill ends', () => {
    expect(readingsEnd(week, Date.parse('2026-11-19T10:29:59.999Z'))).toBe('2026-11-19T10:00:00.000Z');
  });

  it("is the range's end once the range is past", () => {
    expect(readingsEnd(week, Date.parse('2026-12-01T10:00:00Z'))).toBe(week.end);
  });
});
