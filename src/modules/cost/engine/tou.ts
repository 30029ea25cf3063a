import { TOU_PERIODS } from '../../tariffs/tariffs.model.ts';
import type { DayType, PricingCalendar, Season } from './types.ts';

/** Period codes by minute of a local day: 0 where no rule applies, else 1 + index in TOU_PERIODS. */
export type PeriodsByMinute = Uint8Array;

export type LookupPeriods = (season: Season | null, dayType: DayType) => PeriodsByMinute | null;

const MINUTES_PER_DAY = 1440;

/** Rules of the date's season apply, else the schedule's ALL_YEAR rules. */
export function createPeriodLookup(schedule: PricingCalendar['schedule']): LookupPeriods {
  const tables = new Map<string, PeriodsByMinute | null>();
  return (season, dayType) => {
    const key = `${season}|${dayType}`;
    let table = tables.get(key);
    if (table === undefined) {
      table = buildTable(schedule, season, dayType);
      tables.set(key, table);
    }
    return table;
  };
}

function buildTable(
  schedule: PricingCalendar['schedule'],
  season: Season | null,
  dayType: DayType,
): PeriodsByMinute | null {
  if (!schedule) return null;
  const ofDay = schedule.rules.filter((rule) => rule.day_type === dayType);
  let rules = ofDay.filter((rule) => rule.season === season);
  if (rules.length === 0) rules = ofDay.filter((rule) => rule.season === 'ALL_YEAR');
  if (rules.length === 0) return null;
  const table = new Uint8Array(MINUTES_PER_DAY);
  for (const rule of rules) {
    table.fill(
      TOU_PERIODS.indexOf(rule.period) + 1,
      Math.max(rule.start_minute, 0),
      Math.min(rule.end_minute, MINUTES_PER_DAY),
    );
  }
  return table;
}
