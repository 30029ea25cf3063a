import {
  addDays,
  addMonths,
  daysBetween,
  instantOf,
  isoDate,
  isoMonth,
  type LocalDate,
  localParts,
  parseIsoDate,
  today,
  weekdayOf,
} from './time.ts';

/** The periods a chart shows: a day, the last 7 days, an ISO week, a calendar month, or the days chosen. */
export type RangeKind = 'day' | 'last7' | 'week' | 'month' | 'custom';
const KINDS: RangeKind[] = ['day', 'last7', 'week', 'month', 'custom'];
/** The days of a 'last7' range. */
const RECENT_DAYS = 7;
/** The calendar unit of a chart's buckets. */
export type BucketUnit = 'hour' | 'day' | 'month';

export interface Range {
  kind: RangeKind;
  /** First and last local day (inclusive). */
  from: LocalDate;
  to: LocalDate;
  tz: string;
  /** Instants of the start of `from` and the end of `to` (exclusive), ISO 8601. */
  start: string;
  end: string;
  unit: BucketUnit;
}

/** A custom range of more days than this is drawn in months; of at most HOURLY_DAYS, in hours. */
const DAILY_DAYS = 100;
const HOURLY_DAYS = 7;

function unitFor(kind: RangeKind, days: number): BucketUnit {
  if (kind === 'day' || kind === 'week' || kind === 'last7') return 'hour';
  if (kind === 'month') return 'day';
  return days <= HOURLY_DAYS ? 'hour' : days <= DAILY_DAYS ? 'day' : 'month';
}

export function makeRange(kind: RangeKind, from: LocalDate, to: LocalDate, tz: string): Range {
  return {
    kind,
    from,
    to,
    tz,
    start: new Date(instantOf(from, tz)).toISOString(),
    end: new Date(instantOf(addDays(to, 1), tz)).toISOString(),
    unit: unitFor(kind, daysBetween(from, to) + 1),
  };
}

/** The day, week or month around a date, the 7 days up to it (last7), or that day alone (custom). */
export function rangeAround(kind: RangeKind, anchor: LocalDate, tz: string): Range {
  if (kind === 'last7') return makeRange(kind, addDays(anchor, 1 - RECENT_DAYS), anchor, tz);
  if (kind === 'week') {
    const monday = addDays(anchor, 1 - weekdayOf(anchor));
    return makeRange(kind, monday, addDays(monday, 6), tz);
  }
  if (kind === 'month') {
    const first = { ...anchor, day: 1 };
    return makeRange(kind, first, addDays(addMonths(first, 1), -1), tz);
  }
  return makeRange(kind, anchor, anchor, tz);
}

/** The period before (-1) or after (+1) a day, week or month; a custom range moves by its length. */
export function shiftRange(range: Range, direction: -1 | 1): Range {
  if (range.kind === 'month') return rangeAround('month', addMonths(range.from, direction), range.tz);
  const days = (daysBetween(range.from, range.to) + 1) * direction;
  return makeRange(range.kind, addDays(range.from, days), addDays(range.to, days), range.tz);
}

/** The last 7 days up to today. */
export function lastWeekOfDays(tz: string): Range {
  return rangeAround('last7', today(tz), tz);
}

/**
 * The range a page's query names (range=day|last7|week|month|custom, date=YYYY-MM-DD (last7: the
 * last day), from, to), or the fallback when it names none.
 */
export function rangeFromQuery(query: URLSearchParams, tz: string, fallback: () => Range): Range {
  const kind = KINDS.find((k) => k === query.get('range'));
  if (!kind) return fallback();
  if (kind === 'custom') {
    const from = parseIsoDate(query.get('from'));
    const to = parseIsoDate(query.get('to'));
    if (from && to && daysBetween(from, to) >= 0) return makeRange('custom', from, to, tz);
  }
  return rangeAround(kind === 'custom' ? 'day' : kind, parseIsoDate(query.get('date')) ?? today(tz), tz);
}

/** The query that names a range (the inverse of rangeFromQuery). */
export function queryOfRange(range: Range): Record<string, string | undefined> {
  return range.kind === 'custom'
    ? { range: 'custom', from: isoDate(range.from), to: isoDate(range.to), date: undefined }
    : {
        range: range.kind,
        date: isoDate(range.kind === 'last7' ? range.to : range.from),
        from: undefined,
        to: undefined,
      };
}

/** The start of every bucket of a range, in milliseconds: hours, local days or local months. */
export function bucketStarts(range: Range): number[] {
  const end = Date.parse(range.end);
  const starts: number[] = [];
  if (range.unit === 'hour') {
    for (let t = Date.parse(range.start); t < end; t += 3_600_000) starts.push(t);
    return starts;
  }
  const step = range.unit === 'day' ? (d: LocalDate) => addDays(d, 1) : (d: LocalDate) => addMonths(d, 1);
  let date = range.unit === 'day' ? range.from : { ...range.from, day: 1 };
  for (let t = instantOf(date, range.tz); t < end; date = step(date), t = instantOf(date, range.tz)) {
    starts.push(Math.max(t, Date.parse(range.start)));
  }
  return starts;
}

/** A calendar month of a zone, or the part of it up to now. */
export interface MonthSpan {
  /** YYYY-MM. */
  month: string;
  start: string;
  end: string;
}

const HOUR_MS = 3_600_000;

/** The start of the current hour: bills end there, and so do the charts, so that their totals agree. */
export const lastWholeHour = (now = Date.now()) => Math.floor(now / HOUR_MS) * HOUR_MS;

/** The end of a range's readings: the range's end, or the start of the current hour when that is earlier. */
export function readingsEnd(range: Pick<Range, 'end'>, now = Date.now()): string {
  return new Date(Math.min(Date.parse(range.end), lastWholeHour(now))).toISOString();
}

/** The last `count` months of a zone, oldest first, the current one up to the last whole hour. */
export function lastMonths(count: number, tz: string, now = Date.now()): MonthSpan[] {
  const { year, month: current } = localParts(now, tz);
  const first = addMonths({ year, month: current, day: 1 }, 1 - count);
  return Array.from({ length: count }, (_, i) => {
    const month = addMonths(first, i);
    const start = instantOf(month, tz);
    const end = Math.min(instantOf(addMonths(month, 1), tz), Math.max(lastWholeHour(now), start + HOUR_MS));
    return { month: isoMonth(month), start: new Date(start).toISOString(), end: new Date(end).toISOString() };
  });
}
