import { DAY_MS, fromLocalMs, toLocalMs } from '../../../lib/time-zone.ts';
import type { DayType, PricingCalendar, Season } from './types.ts';

export interface LocalDay {
  monthKey: number;
  season: Season | null;
  dayType: DayType;
}

/** Describes a local calendar day of the tariff's timezone, numbered as days since 1970-01-01. */
export type DescribeDay = (localDayNumber: number) => LocalDay;

/** The time of [start, end) that falls on one local month's days of one season. */
export interface SeasonShare {
  /** year * 12 + zero-based month. */
  monthKey: number;
  season: Season | null;
  coveredMs: number;
  /** Elapsed length of the whole month (743 hours for a March with a daylight-saving change). */
  monthMs: number;
}

const WEEKDAY_TYPES: readonly DayType[] = ['SUNDAY', 'WEEKDAY', 'WEEKDAY', 'WEEKDAY', 'WEEKDAY', 'WEEKDAY', 'SATURDAY'];

function monthDayOf(isoDate: string): number {
  return Number(isoDate.slice(5, 7)) * 100 + Number(isoDate.slice(8, 10));
}

/** Days a describer remembers at most (some 110 years), after which it starts again. */
const MAX_DESCRIBED_DAYS = 40_000;

/**
 * The describer of the calendar's days. Bills ask about the same days many times (each reading,
 * each hour), so each day is worked out once per describer and its answer shared (read-only).
 */
export function createDayDescriber(calendar: PricingCalendar): DescribeDay {
  const seasons = calendar.seasons.map((season) => ({
    label: season.label,
    from: monthDayOf(season.date_start),
    to: monthDayOf(season.date_end),
  }));
  const holidays = new Map(
    calendar.holidays.map((holiday) => [Date.parse(holiday.on_date) / DAY_MS, holiday.day_type_override]),
  );
  const holidayDefault = calendar.schedule?.holiday_default ?? 'PUBLIC_HOLIDAY';
  const described = new Map<number, LocalDay>();

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

  function describe(localDayNumber: number): LocalDay {
    const date = new Date(localDayNumber * DAY_MS);
    const holiday = holidays.get(localDayNumber);
    return {
      monthKey: date.getUTCFullYear() * 12 + date.getUTCMonth(),
      season: seasonOf((date.getUTCMonth() + 1) * 100 + date.getUTCDate()),
      dayType: holiday === undefined ? WEEKDAY_TYPES[date.getUTCDay()]! : (holiday ?? holidayDefault),
    };
  }

  return (localDayNumber) => {
    let day = described.get(localDayNumber);
    if (!day) {
      day = describe(localDayNumber);
      if (described.size >= MAX_DESCRIBED_DAYS) described.clear();
      described.set(localDayNumber, day);
    }
    return day;
  };
}

function localDayNumber(timeZone: string, utcMs: number): number {
  return Math.floor(toLocalMs(timeZone, utcMs) / DAY_MS);
}

/** The instant a local month (year * 12 + zero-based month) begins. */
function monthStartMs(timeZone: string, monthKey: number): number {
  return fromLocalMs(timeZone, Date.UTC(Math.floor(monthKey / 12), monthKey % 12, 1));
}

function monthLengthMs(timeZone: string, monthKey: number): number {
  return monthStartMs(timeZone, monthKey + 1) - monthStartMs(timeZone, monthKey);
}

export function monthKeyOf(timeZone: string, utcMs: number): number {
  const local = new Date(toLocalMs(timeZone, utcMs));
  return local.getUTCFullYear() * 12 + local.getUTCMonth();
}

/** YYYY-MM of a month key. */
export function monthLabel(monthKey: number): string {
  return `${Math.floor(monthKey / 12)}-${String((monthKey % 12) + 1).padStart(2, '0')}`;
}

/** The part of [startMs, endMs) in one local month. */
export interface BillingMonth {
  monthKey: number;
  startMs: number;
  endMs: number;
}

/** [startMs, endMs) cut at the local month boundaries of the zone. */
export function billingMonths(timeZone: string, startMs: number, endMs: number): BillingMonth[] {
  const months: BillingMonth[] = [];
  for (let monthKey = monthKeyOf(timeZone, startMs), from = startMs; from < endMs; monthKey += 1) {
    const to = Math.min(endMs, monthStartMs(timeZone, monthKey + 1));
    months.push({ monthKey, startMs: from, endMs: to });
    from = to;
  }
  return months;
}

/** The instant the local month `monthsBack` months before the one of utcMs begins. */
export function monthsBeforeMs(timeZone: string, utcMs: number, monthsBack: number): number {
  return monthStartMs(timeZone, monthKeyOf(timeZone, utcMs) - monthsBack);
}

/**
 * [startMs, endMs) cut at local month boundaries and at season changes, in time order. Consecutive
 * days of one month and season make one share, so only the days where a share begins or ends are
 * turned into instants.
 */
export function seasonShares(
  timeZone: string,
  describeDay: DescribeDay,
  startMs: number,
  endMs: number,
): SeasonShare[] {
  const shares: SeasonShare[] = [];
  const dayStartMs = (dayNumber: number) => fromLocalMs(timeZone, dayNumber * DAY_MS);
  const addShare = (day: LocalDay, fromDay: number, toDay: number) => {
    const covered = Math.min(endMs, dayStartMs(toDay)) - Math.max(startMs, dayStartMs(fromDay));
    if (covered <= 0) return;
    const last = shares.at(-1);
    if (last && last.monthKey === day.monthKey && last.season === day.season) last.coveredMs += covered;
    else {
      const monthMs = monthLengthMs(timeZone, day.monthKey);
      shares.push({ monthKey: day.monthKey, season: day.season, coveredMs: covered, monthMs });
    }
  };
  const lastDay = localDayNumber(timeZone, endMs - 1);
  let runStart = localDayNumber(timeZone, startMs);
  let run = describeDay(runStart);
  for (let dayNumber = runStart + 1; dayNumber <= lastDay; dayNumber += 1) {
    const day = describeDay(dayNumber);
    if (day.monthKey === run.monthKey && day.season === run.season) continue;
    addShare(run, runStart, dayNumber);
    runStart = dayNumber;
    run = day;
  }
  addShare(run, runStart, lastDay + 1);
  return shares;
}
