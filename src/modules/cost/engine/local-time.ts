export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** A UTC day's offset from UTC, with the instant it changes when a transition falls in that day. */
interface DayOffset {
  offsetMs: number;
  changesAt: number | null;
  offsetAfterMs: number;
}

const MAX_CACHED_DAYS = 50_000;
const formatters = new Map<string, Intl.DateTimeFormat>();
const offsetsByZone = new Map<string, Map<number, DayOffset>>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

function probeOffsetMs(timeZone: string, utcMs: number): number {
  const fields = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatterFor(timeZone).formatToParts(utcMs)) {
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const localAsUtc = Date.UTC(fields.year, fields.month - 1, fields.day, fields.hour, fields.minute, fields.second);
  return localAsUtc - Math.floor(utcMs / 1000) * 1000;
}

/**
 * Assumes at most one offset change per UTC day, at a whole minute: a day whose two edges agree has
 * one offset, otherwise the minute of the change is found by bisection.
 */
function scanDay(timeZone: string, day: number): DayOffset {
  const from = day * DAY_MS;
  const offsetMs = probeOffsetMs(timeZone, from);
  const offsetAfterMs = probeOffsetMs(timeZone, from + DAY_MS);
  if (offsetMs === offsetAfterMs) return { offsetMs, changesAt: null, offsetAfterMs };
  let before = from;
  let after = from + DAY_MS;
  while (after - before > MINUTE_MS) {
    const middle = before + Math.floor((after - before) / 2 / MINUTE_MS) * MINUTE_MS;
    if (probeOffsetMs(timeZone, middle) === offsetMs) before = middle;
    else after = middle;
  }
  return { offsetMs, changesAt: after, offsetAfterMs };
}

function offsetsOf(timeZone: string): Map<number, DayOffset> {
  let days = offsetsByZone.get(timeZone);
  if (!days) {
    days = new Map();
    offsetsByZone.set(timeZone, days);
  }
  return days;
}

function dayOffset(timeZone: string, days: Map<number, DayOffset>, day: number): DayOffset {
  let entry = days.get(day);
  if (!entry) {
    if (days.size >= MAX_CACHED_DAYS) days.clear();
    entry = scanDay(timeZone, day);
    days.set(day, entry);
  }
  return entry;
}

function offsetWithin(entry: DayOffset, utcMs: number): number {
  return entry.changesAt !== null && utcMs >= entry.changesAt ? entry.offsetAfterMs : entry.offsetMs;
}

export function utcOffsetMs(timeZone: string, utcMs: number): number {
  return offsetWithin(dayOffset(timeZone, offsetsOf(timeZone), Math.floor(utcMs / DAY_MS)), utcMs);
}

/** toLocalMs for many instants in a row, remembering the last UTC day looked up. */
export function createLocalClock(timeZone: string): (utcMs: number) => number {
  const days = offsetsOf(timeZone);
  let lastDay = Number.NaN;
  let entry: DayOffset | undefined;
  return (utcMs) => {
    const day = Math.floor(utcMs / DAY_MS);
    if (day !== lastDay || !entry) {
      entry = dayOffset(timeZone, days, day);
      lastDay = day;
    }
    return utcMs + offsetWithin(entry, utcMs);
  };
}

/** The wall-clock time in the zone, as milliseconds of a UTC timeline (read it with getUTC*). */
export function toLocalMs(timeZone: string, utcMs: number): number {
  return utcMs + utcOffsetMs(timeZone, utcMs);
}

/** The instant of a wall-clock time (one skipped by a transition comes out shifted by the jump). */
export function fromLocalMs(timeZone: string, localMs: number): number {
  const guess = localMs - utcOffsetMs(timeZone, localMs);
  return localMs - utcOffsetMs(timeZone, guess);
}
