import { describe, expect, it } from 'vitest';
import { type CalendarUnit, calendarBuckets, calendarUnitCount } from './calendar.ts';

const buckets = (unit: CalendarUnit, tz: string, start: string, end: string) =>
  calendarBuckets(unit, tz, new Date(start), new Date(end)).map((b) => [new Date(b.start).toISOString(), b.label]);

describe('calendarBuckets', () => {
  it('starts a day where the clocks skip midnight at the first instant after the jump (America/Santiago)', () => {
    // 2025-09-07 00:00 -04 does not exist: the clocks go from 23:59:59 to 01:00 -03.
    expect(buckets('day', 'America/Santiago', '2025-09-06T12:00:00Z', '2025-09-08T12:00:00Z')).toEqual([
      ['2025-09-06T04:00:00.000Z', '2025-09-06'],
      ['2025-09-07T04:00:00.000Z', '2025-09-07'],
      ['2025-09-08T03:00:00.000Z', '2025-09-08'],
    ]);
  });

  it('leaves out a day that the zone skipped (Pacific/Apia, 2011-12-30)', () => {
    expect(buckets('day', 'Pacific/Apia', '2011-12-29T00:00:00Z', '2011-12-31T12:00:00Z')).toEqual([
      ['2011-12-28T10:00:00.000Z', '2011-12-28'],
      ['2011-12-29T10:00:00.000Z', '2011-12-29'],
      ['2011-12-30T10:00:00.000Z', '2011-12-31'],
      ['2011-12-31T10:00:00.000Z', '2012-01-01'],
    ]);
  });

  it('gives the hour of a half-hour clock change its half hour (Australia/Lord_Howe)', () => {
    // 02:00 +10:30 becomes 02:30 +11.
    expect(buckets('hour', 'Australia/Lord_Howe', '2025-10-04T14:00:00Z', '2025-10-04T17:00:00Z')).toEqual([
      ['2025-10-04T13:30:00.000Z', '2025-10-05T00'],
      ['2025-10-04T14:30:00.000Z', '2025-10-05T01'],
      ['2025-10-04T15:30:00.000Z', '2025-10-05T02'],
      ['2025-10-04T16:00:00.000Z', '2025-10-05T03'],
    ]);
  });

  it('names weeks by ISO week-year: 2020 had 53 weeks, 2024-12-30 is in week 1 of 2025', () => {
    expect(buckets('week', 'UTC', '2020-12-28T00:00:00Z', '2021-01-05T00:00:00Z')).toEqual([
      ['2020-12-28T00:00:00.000Z', '2020-W53'],
      ['2021-01-04T00:00:00.000Z', '2021-W01'],
    ]);
    expect(buckets('week', 'UTC', '2024-12-23T00:00:00Z', '2025-01-07T00:00:00Z').map(([, label]) => label)).toEqual([
      '2024-W52',
      '2025-W01',
      '2025-W02',
    ]);
  });

  it('gives months their local length across a daylight-saving change (Europe/Berlin)', () => {
    expect(buckets('month', 'Europe/Berlin', '2025-03-01T00:00:00+01:00', '2025-05-01T00:00:00+02:00')).toEqual([
      ['2025-02-28T23:00:00.000Z', '2025-03'],
      ['2025-03-31T22:00:00.000Z', '2025-04'],
    ]);
  });

  it('gives every hour of a year once, the skipped one left out', () => {
    const hours = calendarBuckets(
      'hour',
      'Europe/London',
      new Date('2025-01-01T00:00:00Z'),
      new Date('2026-01-01T00:00:00Z'),
    );
    // 8760 hours; the repeated hour of October is one bucket of two.
    expect(hours).toHaveLength(8759);
    expect(new Set(hours.map((h) => h.label)).size).toBe(8759);
  });
});

describe('calendarUnitCount', () => {
  it('counts the units of the local calendar from the one holding start to the one holding end', () => {
    const count = (unit: CalendarUnit, tz: string, start: string, end: string) =>
      calendarUnitCount(unit, tz, new Date(start), new Date(end));
    expect(count('day', 'UTC', '2025-01-01T00:00:00Z', '2025-01-02T00:00:00Z')).toBe(1);
    expect(count('day', 'UTC', '2025-01-01T12:00:00Z', '2025-01-02T00:00:01Z')).toBe(2);
    expect(count('month', 'Africa/Johannesburg', '2024-12-31T22:00:00Z', '2025-12-31T22:00:00Z')).toBe(12);
    expect(count('week', 'America/New_York', '2025-03-03T05:00:00Z', '2025-03-17T04:00:00Z')).toBe(2);
    expect(count('hour', 'Europe/London', '2025-03-30T00:00:00Z', '2025-03-30T03:00:00Z')).toBe(4);
  });
});
