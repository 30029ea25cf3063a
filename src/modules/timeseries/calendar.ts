import { DAY_MS, HOUR_MS, createOffsetClock as offsetsOf } from '../../lib/time-zone.ts';

/**
 * Calendar units (hours, days, ISO weeks, months) of an IANA time zone, as instants. Offsets come
 * from the time-zone engine (`src/lib/time-zone.ts`); nothing here asks the database, so a
 * bucket's start, its label and the readings it holds all follow one set of rules.
 *
 * Times are milliseconds. A "wall" time is a local date and time written as if it were UTC
 * (Date.UTC of its fields), so that calendar arithmetic on it is plain UTC arithmetic.
 */

export const CALENDAR_UNITS = ['hour', 'day', 'week', 'month'] as const;
export type CalendarUnit = (typeof CALENDAR_UNITS)[number];

/** A unit of the calendar: its first instant and its local name. */
interface CalendarBucket {
  start: number;
  label: string;
}

/** Further than any offset or offset change: an instant this far before a wall time precedes it. */
const BEFORE_ANY_OFFSET_MS = 2 * DAY_MS;

type Offsets = (time: number) => number;

/**
 * The first instant whose local time is at or after wall, and the offset there. hint is the
 * offset at some instant before that one, with at most one offset change in between. When wall
 * does not exist (the clocks skipped it), that is the instant the clocks went forward.
 */
function firstInstantAt(offsetAt: Offsets, wall: number, hint: number) {
  const before = wall - hint;
  const offsetThen = offsetAt(before);
  if (offsetThen === hint) return { instant: before, offset: hint };
  // The offset changed on the way: wall read with the new offset.
  const after = wall - offsetThen;
  if (offsetAt(after) === offsetThen) return { instant: after, offset: offsetThen };
  // Skipped: the smallest instant whose local time has passed wall lies between the two readings.
  let low = Math.min(before, after);
  let high = Math.max(before, after);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (middle + offsetAt(middle) >= wall) high = middle;
    else low = middle;
  }
  return { instant: high, offset: offsetAt(high) };
}

/** The start of the unit holding a wall time, as a wall time. */
function unitStart(unit: CalendarUnit, wall: number): number {
  if (unit === 'hour') return Math.floor(wall / HOUR_MS) * HOUR_MS;
  const day = Math.floor(wall / DAY_MS) * DAY_MS;
  if (unit === 'day') return day;
  if (unit === 'week') return day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  const date = new Date(day);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

function nextUnit(unit: CalendarUnit, wall: number): number {
  if (unit === 'hour') return wall + HOUR_MS;
  if (unit === 'day') return wall + DAY_MS;
  if (unit === 'week') return wall + 7 * DAY_MS;
  const date = new Date(wall);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
}

/** The ISO week (from Monday) of a Monday: its year is the year of its Thursday. */
function isoWeekLabel(monday: number): string {
  const thursday = new Date(monday + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * DAY_MS)) + 1;
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The local name of the unit starting at wall: 2025-03-30T14, 2025-03-30, 2025-W13, 2025-03. */
function unitLabel(unit: CalendarUnit, wall: number): string {
  const iso = new Date(wall).toISOString();
  if (unit === 'hour') return iso.slice(0, 13);
  if (unit === 'day') return iso.slice(0, 10);
  if (unit === 'week') return isoWeekLabel(wall);
  return iso.slice(0, 7);
}

function unitsBetween(unit: CalendarUnit, first: number, last: number): number {
  if (unit === 'month') {
    const [a, b] = [new Date(first), new Date(last)];
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  }
  const size = unit === 'hour' ? HOUR_MS : unit === 'day' ? DAY_MS : 7 * DAY_MS;
  return Math.round((last - first) / size);
}

/**
 * How many units the local calendar shows from the one holding start to the one holding the last
 * instant before end (a skipped hour is counted too): the buckets' number, found from two offsets.
 */
export function calendarUnitCount(unit: CalendarUnit, timeZone: string, start: Date, end: Date): number {
  const offsetAt = offsetsOf(timeZone);
  const localUnit = (time: number) => unitStart(unit, time + offsetAt(time));
  return unitsBetween(unit, localUnit(start.getTime()), localUnit(end.getTime() - 1)) + 1;
}

/**
 * The units of the zone's calendar that hold an instant of [start, end), ascending: each starts at
 * the first instant of its local date (or hour), so a day lasts 23 or 25 hours across a
 * daylight-saving change, and the first unit may start before start. A unit that the clocks skip
 * entirely (the hour they jump over) has no instant and is left out; an hour that the clocks
 * repeat is one unit of two hours.
 */
export function calendarBuckets(unit: CalendarUnit, timeZone: string, start: Date, end: Date): CalendarBucket[] {
  const offsetAt = offsetsOf(timeZone);
  const from = start.getTime();
  let wall = unitStart(unit, from + offsetAt(from));
  let { instant, offset } = firstInstantAt(offsetAt, wall, offsetAt(wall - BEFORE_ANY_OFFSET_MS));
  const buckets: CalendarBucket[] = [{ start: instant, label: unitLabel(unit, wall) }];
  for (;;) {
    wall = nextUnit(unit, wall);
    ({ instant, offset } = firstInstantAt(offsetAt, wall, offset));
    if (instant >= end.getTime()) return buckets;
    const bucket = { start: instant, label: unitLabel(unit, wall) };
    // The unit before starts where this one does: it has no instant.
    if (instant === buckets.at(-1)!.start) buckets[buckets.length - 1] = bucket;
    else buckets.push(bucket);
  }
}
