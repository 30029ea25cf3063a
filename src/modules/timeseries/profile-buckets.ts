import type { Bucketing, TimeRange } from './aggregates.repository.ts';
import { type CalendarUnit, calendarBuckets, calendarUnitCount } from './calendar.ts';
import { isoWriter } from './iso-time.ts';

const MINUTE_MS = 60_000;

/** The buckets of a profile: minutes counted from start, or units of a time zone's calendar. */
type Grouping = { minutes: number } | { unit: CalendarUnit; tz: string };

export const DEFAULT_BUCKET_MINUTES = 30;

/** How a profile query asks for its buckets: bucket_minutes or group_by (not both) and tz. */
export interface BucketFields {
  bucket_minutes?: number;
  group_by?: CalendarUnit;
  tz: string;
}

export function groupingOf(query: BucketFields): Grouping {
  return query.group_by
    ? { unit: query.group_by, tz: query.tz }
    : { minutes: query.bucket_minutes ?? DEFAULT_BUCKET_MINUTES };
}

/**
 * How many buckets the range holds, before any is made; for calendar units, as many as the local
 * calendar shows from the unit holding start to the one holding end (calendarUnitCount).
 */
export function bucketCount(grouping: Grouping, range: TimeRange): number {
  if ('unit' in grouping) return calendarUnitCount(grouping.unit, grouping.tz, range.start, range.end);
  return Math.ceil((range.end.getTime() - range.start.getTime()) / (grouping.minutes * MINUTE_MS));
}

/** Every bucket of a profile's range: how to ask for them, how many, and what each is called. */
export interface ProfileBuckets {
  bucketing: Bucketing;
  count: number;
  /** The bucket's start (UTC, ISO 8601). */
  ts(index: number): string;
  /** The bucket's local name, for calendar units. */
  label(index: number): string | undefined;
}

export function profileBuckets(grouping: Grouping, range: TimeRange): ProfileBuckets {
  const iso = isoWriter();
  if ('minutes' in grouping) {
    const widthMs = grouping.minutes * MINUTE_MS;
    return {
      bucketing: grouping,
      count: bucketCount(grouping, range),
      ts: (index) => iso(range.start.getTime() + index * widthMs),
      label: () => undefined,
    };
  }
  const buckets = calendarBuckets(grouping.unit, grouping.tz, range.start, range.end);
  return {
    bucketing: { starts: buckets.map((b) => b.start) },
    count: buckets.length,
    ts: (index) => iso(buckets[index]!.start),
    label: (index) => buckets[index]!.label,
  };
}

/**
 * One point per bucket that has values (by bucket index), ascending, or per bucket of the range
 * with fill; point makes each of its bucket's start, label (undefined without calendar units: the
 * JSON leaves it out) and values (undefined: none).
 */
export function bucketPoints<V, P>(
  buckets: ProfileBuckets,
  values: ReadonlyMap<number, V>,
  fill: boolean,
  point: (ts: string, label: string | undefined, value: V | undefined) => P,
): P[] {
  const indexes = fill
    ? Array.from({ length: buckets.count }, (_, index) => index)
    : [...values.keys()].sort((a, b) => a - b);
  return indexes.map((index) => point(buckets.ts(index), buckets.label(index), values.get(index)));
}
