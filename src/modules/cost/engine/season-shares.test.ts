import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, fromLocalMs, toLocalMs } from '../../../lib/time-zone.ts';
import { createDayDescriber, type DescribeDay, type SeasonShare, seasonShares } from './calendar.ts';
import type { PricingCalendar } from './types.ts';

/** The shares as a walk over every local day finds them: each day turned into its instants. */
function sharesDayByDay(timeZone: string, describeDay: DescribeDay, startMs: number, endMs: number) {
  const dayStart = (dayNumber: number) => fromLocalMs(timeZone, dayNumber * DAY_MS);
  const shares: Omit<SeasonShare, 'monthMs'>[] = [];
  for (let dayNumber = Math.floor(toLocalMs(timeZone, startMs) / DAY_MS); dayStart(dayNumber) < endMs; dayNumber += 1) {
    const covered = Math.min(endMs, dayStart(dayNumber + 1)) - Math.max(startMs, dayStart(dayNumber));
    if (covered <= 0) continue;
    const { monthKey, season } = describeDay(dayNumber);
    const last = shares.at(-1);
    if (last && last.monthKey === monthKey && last.season === season) last.coveredMs += covered;
    else shares.push({ monthKey, season, coveredMs: covered });
  }
  return shares;
}

// Zones with a change at midnight (Havana, Sao Paulo until 2019), a skipped day (Apia, 2011-12-30),
// a 30-minute change (Lord Howe) and a southern summer.
const ZONES = [
  'Africa/Johannesburg',
  'Europe/London',
  'America/Havana',
  'America/Sao_Paulo',
  'Pacific/Apia',
  'Australia/Lord_Howe',
];

const CALENDAR: PricingCalendar = {
  seasons: [
    { label: 'WINTER', date_start: '2000-06-01', date_end: '2000-08-31' },
    { label: 'SUMMER', date_start: '2000-09-01', date_end: '2000-05-31' },
  ],
  schedule: null,
  holidays: [{ on_date: '2011-12-30', day_type_override: null }],
};

describe('season shares', () => {
  it('cuts a period as a walk over every local day does, around changes of offset and skipped days', () => {
    const from = Date.UTC(2005, 0, 1);
    const to = Date.UTC(2021, 0, 1);
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: from, max: to }),
        fc.integer({ min: 1, max: 400 * DAY_MS }),
        (zone, startMs, lengthMs) => {
          const describeDay = createDayDescriber(CALENDAR);
          const shares = seasonShares(zone, describeDay, startMs, startMs + lengthMs);
          expect(shares.map(({ monthMs: _, ...share }) => share)).toEqual(
            sharesDayByDay(zone, describeDay, startMs, startMs + lengthMs),
          );
          expect(shares.reduce((sum, share) => sum + share.coveredMs, 0)).toBe(lengthMs);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('goes over the day Samoa skipped (2011-12-30) in one share of December', () => {
    const start = fromLocalMs('Pacific/Apia', Date.UTC(2011, 11, 29));
    const end = fromLocalMs('Pacific/Apia', Date.UTC(2012, 0, 1));
    const [december, ...rest] = seasonShares('Pacific/Apia', createDayDescriber(CALENDAR), start, end);
    expect(rest).toEqual([]);
    expect(december).toEqual({
      monthKey: 2011 * 12 + 11,
      season: 'SUMMER',
      coveredMs: end - start,
      monthMs: 30 * DAY_MS,
    });
  });
});
