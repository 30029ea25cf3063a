import { DAY_MS, fromLocalMs, toLocalMs } from './local-time.ts';
import { Dec } from './money.ts';
import type { DayType, PricingCalendar, Season } from './types.ts';

export interface LocalDay {
  monthKey: number;
  season: Season | null;
  dayType: DayType;
}

/** Describes a local calendar day of the tariff's timezone, numbered as days since 1970-01-01. */
export type DescribeDay = (localDayNumber: number) => LocalDay;

/** Covered share of one local calendar month; monthKey = year * 12 + zero-based month. */
export interface MonthShare {
  monthKey: number;
  fraction: Dec;
}

const WEEKDAY_TYPES: readonly DayType[] = ['SUNDAY', 'WEEKDAY', 'WEEKDAY', 'WEEKDAY', 'WEEKDAY', 'WEEKDAY', 'SATURDAY'];

function monthDayOf(isoDate: string): number {
  return Number(isoDate.slice(5, 7)) * 100 + Number(isoDate.slice(8, 10));
}

export function createDayDescriber(calendar: PricingCalendar): DescribeDay {
  const seasons = calendar.seasons.map((season) => ({
    label: season.label,
    from: monthDayOf(season.date_start),
    to: monthDayOf(season.date_end),
  }));
  const holidays = new Map(calendar.holidays.map((holiday) => [holiday.on_date, holiday.day_type_override]));
  const holidayDefault = calendar.schedule?.holiday_default ?? 'PUBLIC_HOLIDAY';

  function seasonOf(monthDay: number): Season | null {
    let allYear: Season | null = null;
    for (const season of seasons) {
      const inRange =
        season.from <= season.to
          ? monthDay >= season.from && monthDay <= season.to
          : monthDay >= season.from || monthDay <= season.to;
      if (!inRange) continue;
      if (season.label !== 'ALL_YEAR') return season.label;
      allYear = season.label;
    }
    return allYear;
  }

  return (localDayNumber) => {
    const date = new Date(localDayNumber * DAY_MS);
    const holiday = holidays.get(date.toISOString().slice(0, 10));
    return {
      monthKey: date.getUTCFullYear() * 12 + date.getUTCMonth(),
      season: seasonOf((date.getUTCMonth() + 1) * 100 + date.getUTCDate()),
      dayType: holiday === undefined ? WEEKDAY_TYPES[date.getUTCDay()]! : (holiday ?? holidayDefault),
    };
  };
}

export function localDayNumber(timeZone: string, utcMs: number): number {
  return Math.floor(toLocalMs(timeZone, utcMs) / DAY_MS);
}

/** Each local calendar month touched by [startMs, endMs) with the elapsed share of it covered. */
export function monthsCovered(timeZone: string, startMs: number, endMs: number): MonthShare[] {
  const localStart = new Date(toLocalMs(timeZone, startMs));
  let year = localStart.getUTCFullYear();
  let month = localStart.getUTCMonth();
  let monthStart = fromLocalMs(timeZone, Date.UTC(year, month, 1));
  const shares: MonthShare[] = [];
  while (monthStart < endMs) {
    const nextStart = fromLocalMs(timeZone, Date.UTC(year, month + 1, 1));
    const covered = Math.min(endMs, nextStart) - Math.max(startMs, monthStart);
    if (covered > 0) {
      shares.push({ monthKey: year * 12 + month, fraction: new Dec(covered).div(nextStart - monthStart) });
    }
    month += 1;
    if (month === 12) {
      month = 0;
      year += 1;
    }
    monthStart = nextStart;
  }
  return shares;
}
