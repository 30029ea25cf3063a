/**
 * The one time-zone engine of the service and the console: a zone's offset from UTC at an instant,
 * from Intl (the ICU time zone data of Node or of the browser), and the conversions between
 * instants and wall-clock times built on it. Pure functions of the zone's rules; what is kept
 * between calls is a memo of their results, bounded (docs/decisions.md, "One time-zone engine").
 *
 * Times are milliseconds. A "local" or "wall" time is a local date and time written as if it were
 * UTC (Date.UTC of its fields), so that calendar arithmetic on it is plain UTC arithmetic.
 */

const SECOND_MS = 1000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** A UTC day's offset from UTC, with the instant it changes when a change falls in that day. */
interface DayOffset {
  offsetMs: number;
  changesAt: number | null;
  offsetAfterMs: number;
}

/** The memo of one zone: its formatter and the offsets of the UTC days asked about. */
interface Zone {
  clock: Intl.DateTimeFormat;
  days: Map<number, DayOffset>;
}

/** Zones kept at once (any spelling Intl accepts is a key) and UTC days kept per zone. */
const MAX_ZONES = 1000;
const MAX_DAYS_PER_ZONE = 50_000;
const zones = new Map<string, Zone>();

/** Letters, digits and the characters of zone names: no numeric offsets such as +02:00. */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** The zone's memo (throws a RangeError for a zone Intl does not know). */
function zoneOf(timeZone: string): Zone {
  let zone = zones.get(timeZone);
  if (!zone) {
    const clock = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    if (zones.size >= MAX_ZONES) zones.clear();
    zone = { clock, days: new Map() };
    zones.set(timeZone, zone);
  }
  return zone;
}

/** Whether name is an IANA time zone (or one of its aliases, such as UTC), in any letter case. */
export function isTimeZone(name: string): boolean {
  if (!ZONE_NAME.test(name)) return false;
  try {
    zoneOf(name);
    return true;
  } catch {
    return false;
  }
}

/** The offset as the formatter writes it: GMT, GMT+01:00, GMT-03:30, GMT-00:44:30 (local mean time). */
const OFFSET = /GMT(?:([+-])(\d\d):(\d\d)(?::(\d\d))?)?/;

/** The zone's offset at an instant (local minus UTC), to the second, asked of Intl. */
function probeOffsetMs(clock: Intl.DateTimeFormat, utcMs: number): number {
  const [, sign, hours, minutes, seconds = '0'] = OFFSET.exec(clock.format(utcMs))!;
  if (!sign) return 0;
  const offset = ((Number(hours) * 60 + Number(minutes)) * 60 + Number(seconds)) * SECOND_MS;
  return sign === '-' ? -offset : offset;
}

/**
 * A UTC day's offsets, assuming at most one change per UTC day (no zone changes its clocks twice
 * within a day): a day whose two edges agree has one offset, otherwise the second of the change is
 * found by bisection.
 */
function scanDay(clock: Intl.DateTimeFormat, day: number): DayOffset {
  const from = day * DAY_MS;
  const offsetMs = probeOffsetMs(clock, from);
  const offsetAfterMs = probeOffsetMs(clock, from + DAY_MS);
  if (offsetMs === offsetAfterMs) return { offsetMs, changesAt: null, offsetAfterMs };
  let before = from;
  let after = from + DAY_MS;
  while (after - before > SECOND_MS) {
    const middle = before + Math.floor((after - before) / 2 / SECOND_MS) * SECOND_MS;
    if (probeOffsetMs(clock, middle) === offsetMs) before = middle;
    else after = middle;
  }
  return { offsetMs, changesAt: after, offsetAfterMs };
}

function dayOffset(zone: Zone, day: number): DayOffset {
  let entry = zone.days.get(day);
  if (!entry) {
    if (zone.days.size >= MAX_DAYS_PER_ZONE) zone.days.clear();
    entry = scanDay(zone.clock, day);
    zone.days.set(day, entry);
  }
  return entry;
}

function offsetWithin(entry: DayOffset, utcMs: number): number {
  return entry.changesAt !== null && utcMs >= entry.changesAt ? entry.offsetAfterMs : entry.offsetMs;
}

/** The zone's offset from UTC at an instant (local minus UTC), to the second. */
export function utcOffsetMs(timeZone: string, utcMs: number): number {
  return offsetWithin(dayOffset(zoneOf(timeZone), Math.floor(utcMs / DAY_MS)), utcMs);
}

/** The offsets of one zone at many instants in a row, remembering the last UTC day looked up. */
export function createOffsetClock(timeZone: string): (utcMs: number) => number {
  const zone = zoneOf(timeZone);
  let lastDay = Number.NaN;
  let entry: DayOffset | undefined;
  return (utcMs) => {
    const day = Math.floor(utcMs / DAY_MS);
    if (day !== lastDay || !entry) {
      entry = dayOffset(zone, day);
      lastDay = day;
    }
    return offsetWithin(entry, utcMs);
  };
}

/** toLocalMs for many instants in a row (the pricing engine's hot path). */
export function createLocalClock(timeZone: string): (utcMs: number) => number {
  const offsetAt = createOffsetClock(timeZone);
  return (utcMs) => utcMs + offsetAt(utcMs);
}

/** The wall-clock time in the zone, as milliseconds of a UTC timeline (read it with getUTC*). */
export function toLocalMs(timeZone: string, utcMs: number): number {
  return utcMs + utcOffsetMs(timeZone, utcMs);
}

/**
 * The instants whose wall-clock time in the zone is localMs, earliest first: one, or two for a
 * time the clocks repeat, or none for a time they skip. No zone changes its offset twice within a
 * day of a given time, so the offsets a day before and a day after are the only candidates.
 */
export function instantsOfWall(timeZone: string, localMs: number): number[] {
  const before = localMs - utcOffsetMs(timeZone, localMs - DAY_MS);
  const after = localMs - utcOffsetMs(timeZone, localMs + DAY_MS);
  const candidates = before === after ? [before] : [Math.min(before, after), Math.max(before, after)];
  return candidates.filter((instant) => toLocalMs(timeZone, instant) === localMs);
}

/**
 * The instant of a wall-clock time, as Temporal's `compatible` disambiguation: of a time the clocks
 * repeat, the earlier instant; a time they skip comes out shifted by the jump (read with the offset
 * before the change).
 */
export function fromLocalMs(timeZone: string, localMs: number): number {
  return instantsOfWall(timeZone, localMs)[0] ?? localMs - utcOffsetMs(timeZone, localMs - DAY_MS);
}
