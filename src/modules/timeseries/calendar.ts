/**
 * Calendar units (hours, days, ISO weeks, months) of an IANA time zone, as instants. Offsets come
 * from Intl.DateTimeFormat (the ICU time zone data of Node); nothing here asks the database, so a
 * bucket's start, its label and the readings it holds all follow one set of rules.
 *
 * Times are milliseconds. A "wall" time is a local date and time written as if it were UTC
 * (Date.UTC of its fields), so that calendar arithmetic on it is plain UTC arithmetic.
 */

export const CALENDAR_UNITS = ['hour', 'day', 'week', 'month'] as const;
export type CalendarUnit = (typeof CALENDAR_UNITS)[number];

/** A unit of the calendar: its first instant and its local name. */
export interface CalendarBucket {
  start: number;
  label: string;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const SECOND_MS = 1000;
/** Further than any offset or offset change: an instant this far before a wall time precedes it. */
const BEFORE_ANY_OFFSET_MS = 2 * DAY_MS;

const MAX_CACHED_ZONES = 1000;
const clocks = new Map<string, Intl.DateTimeFormat>();

/** A formatter that writes a zone's offset at an instant (throws a RangeError for an unknown zone). */
function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    // Any spelling Intl accepts is a key (names are case-insensitive): the cache stays bounded.
    if (clocks.size >= MAX_CACHED_ZONES) clocks.clear();
    clocks.set(timeZone, clock);
  }
  return clock;
}

/** Letters, digits and the characters of zone names: no numeric offsets such as +02:00. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** Whether name is an IANA time zone (or one of its aliases, such as UTC). */
export function isTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    clockOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The offset as the formatter writes it: GMT, GMT+01:00, GMT-03:30, GMT-00:44:30 (local mean time). */
const OFFSET = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?/;

/** The zone's offset from UTC at an instant (local minus UTC), to the second. */
function offsetFrom(clock: Intl.DateTimeFormat, time: number): number {
  const [, sign, hours, minutes, seconds = '0'] = OFFSET.exec(clock.format(time))!;
  if (!sign) return 0;
  const offset = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * SECOND_MS;
  return sign === '-' ? -offset : offset;
}

type Offsets = (time: number) => number;

/**
 * The offsets of a zone, remembering the last day over which the offset was found not to change
 * (the same at both ends: no zone changes its clocks twice within a day), so that walking the
 * hours asks Intl about once a day rather than once an hour.
 */
function offsetsOf(timeZone: string): Offsets {
  const clock = clockOf(timeZone);
  let steadyFrom = Number.NaN;
  let steadyTo = Number.NaN;
  let steadyOffset = 0;
  return (time) => {
    if (time >= steadyFrom && time <= steadyTo) return steadyOffset;
    const offset = offsetFrom(clock, time);
    if (offsetFrom(clock, time + DAY_MS) === offset) {
      [steadyFrom, steadyTo, steadyOffset] = [time, time + DAY_MS, offset];
    }
    return offset;
  };
}

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
