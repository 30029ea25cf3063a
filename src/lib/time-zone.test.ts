import fc from 'fast-check';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { createLocalClock, fromLocalMs, isTimeZone, toLocalMs, utcOffsetMs } from './time-zone.ts';

/**
 * Zones with every kind of rule: none (UTC, Johannesburg), northern and southern daylight saving,
 * half- and quarter-hour offsets and changes (Lord Howe changes by 30 minutes), a skipped day
 * (Apia, 2011-12-30) and local mean time before standard time (Amsterdam's +00:19:32).
 */
const ZONES = [
  'UTC',
  'Africa/Johannesburg',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Sao_Paulo',
  'Australia/Sydney',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Pacific/Apia',
  'Pacific/Chatham',
  'Europe/Amsterdam',
] as const;

const FROM = Date.UTC(1850, 0, 1);
const TO = Date.UTC(2100, 0, 1);

/** The oracle: the Temporal API (a maintained polyfill), written independently of Intl's offsets. */
const temporalOffsetMs = (zone: string, utcMs: number) =>
  Temporal.Instant.fromEpochMilliseconds(utcMs).toZonedDateTimeISO(zone).offsetNanoseconds / 1e6;

function temporalInstantOfWall(zone: string, localMs: number): number {
  const wall = new Date(localMs);
  return Temporal.ZonedDateTime.from(
    {
      timeZone: zone,
      year: wall.getUTCFullYear(),
      month: wall.getUTCMonth() + 1,
      day: wall.getUTCDate(),
      hour: wall.getUTCHours(),
      minute: wall.getUTCMinutes(),
      second: wall.getUTCSeconds(),
      millisecond: wall.getUTCMilliseconds(),
    },
    { disambiguation: 'compatible' },
  ).epochMilliseconds;
}

const zone = fc.constantFrom(...ZONES);
const instant = fc.integer({ min: FROM, max: TO });

describe('the time-zone engine against the Temporal API', () => {
  it('gives the offset of any instant, to the second', () => {
    fc.assert(
      fc.property(zone, instant, (tz, t) => {
        expect(utcOffsetMs(tz, t)).toBe(temporalOffsetMs(tz, t));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the offset on either side of every change of a zone from 1970 to 2100', () => {
    for (const tz of ZONES) {
      let t = Temporal.Instant.fromEpochMilliseconds(Date.UTC(1970, 0, 1)).toZonedDateTimeISO(tz);
      for (;;) {
        const next = t.getTimeZoneTransition('next');
        if (!next || next.epochMilliseconds > TO) break;
        for (const probe of [next.epochMilliseconds - 1000, next.epochMilliseconds]) {
          expect(utcOffsetMs(tz, probe), `${tz} at ${new Date(probe).toISOString()}`).toBe(temporalOffsetMs(tz, probe));
        }
        t = next;
      }
    }
  });

  it('walks a year of half hours with one clock as the offsets say', () => {
    for (const tz of ZONES) {
      const local = createLocalClock(tz);
      for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2025, 0, 1); t += 1_800_000) {
        if (local(t) !== t + temporalOffsetMs(tz, t)) expect(local(t)).toBe(t + temporalOffsetMs(tz, t));
      }
    }
  });

  it('turns the wall-clock times around every change of a zone into instants as Temporal does', () => {
    for (const tz of ZONES) {
      let t = Temporal.Instant.fromEpochMilliseconds(Date.UTC(1970, 0, 1)).toZonedDateTimeISO(tz);
      for (;;) {
        const next = t.getTimeZoneTransition('next');
        if (!next || next.epochMilliseconds > TO) break;
        const wall = next.epochMilliseconds + temporalOffsetMs(tz, next.epochMilliseconds);
        // The wall-clock times from an hour before the change's to an hour after, every quarter hour.
        for (let local = wall - 3_600_000; local <= wall + 3_600_000; local += 900_000) {
          expect(fromLocalMs(tz, local), `${tz} at ${new Date(local).toISOString()} wall`).toBe(
            temporalInstantOfWall(tz, local),
          );
        }
        t = next;
      }
    }
  });

  it('turns a wall-clock time into its instant as Temporal does (a skipped time moves on by the jump)', () => {
    fc.assert(
      fc.property(zone, fc.integer({ min: Date.UTC(1970, 0, 1), max: TO }), (tz, localMs) => {
        expect(fromLocalMs(tz, localMs)).toBe(temporalInstantOfWall(tz, localMs));
      }),
      { numRuns: 3000 },
    );
  });

  it('goes back and forth between an instant and its wall-clock time', () => {
    fc.assert(
      fc.property(zone, instant, (tz, t) => {
        const local = toLocalMs(tz, t);
        // An instant of the hour the clocks repeat has the wall time of an earlier one as well.
        expect(toLocalMs(tz, fromLocalMs(tz, local))).toBe(local);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('isTimeZone', () => {
  it('knows IANA names in any case and their aliases, not offsets or other text', () => {
    for (const name of ['UTC', 'Europe/London', 'europe/london', 'Asia/Calcutta', 'Etc/GMT+5']) {
      expect(isTimeZone(name)).toBe(true);
    }
    for (const name of ['+02:00', 'GMT+2 ', 'Mars/Base', '', 'Europe/../London']) expect(isTimeZone(name)).toBe(false);
  });
});
