import { describe, expect, it } from 'vitest';
import { addDays, addMonths, instantOf, isoDate, localParts, parseIsoDate, weekdayOf } from './time.ts';

const iso = (instant: number) => new Date(instant).toISOString();

describe('calendar time in a zone', () => {
  it('finds the instant of a local midnight', () => {
    expect(iso(instantOf({ year: 2026, month: 10, day: 1 }, 'Africa/Johannesburg'))).toBe('2026-09-30T22:00:00.000Z');
    expect(iso(instantOf({ year: 2026, month: 1, day: 15 }, 'UTC', 7, 30))).toBe('2026-01-15T07:30:00.000Z');
  });

  it('follows daylight saving: the days around a change have 23 and 25 hours', () => {
    const tz = 'Europe/Berlin';
    const spring = instantOf({ year: 2025, month: 3, day: 30 }, tz);
    const next = instantOf({ year: 2025, month: 3, day: 31 }, tz);
    expect(iso(spring)).toBe('2025-03-29T23:00:00.000Z');
    expect((next - spring) / 3_600_000).toBe(23);
    const autumn = instantOf({ year: 2025, month: 10, day: 26 }, tz);
    expect((instantOf({ year: 2025, month: 10, day: 27 }, tz) - autumn) / 3_600_000).toBe(25);
    // 02:30 does not exist on the spring day: the instant after the gap.
    expect(iso(instantOf({ year: 2025, month: 3, day: 30 }, tz, 2, 30))).toBe('2025-03-30T01:30:00.000Z');
  });

  it('reads the local parts of an instant', () => {
    expect(localParts(Date.parse('2026-11-22T22:30:00Z'), 'Africa/Johannesburg')).toEqual({
      year: 2026,
      month: 11,
      day: 23,
      hour: 0,
      minute: 30,
      weekday: 1,
    });
  });

  it('counts dates', () => {
    expect(isoDate(addDays({ year: 2026, month: 2, day: 27 }, 2))).toBe('2026-03-01');
    expect(isoDate(addMonths({ year: 2026, month: 12, day: 9 }, 1))).toBe('2027-01-01');
    expect(weekdayOf({ year: 2026, month: 11, day: 23 })).toBe(1);
    expect(parseIsoDate('2026-02-30')).toBeNull();
    expect(parseIsoDate('2026-02-28')).toEqual({ year: 2026, month: 2, day: 28 });
  });
});
