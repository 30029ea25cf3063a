export type SegmentSource = 'daily' | 'hourly' | 'raw';

/** A part [from, to) of a query's range and where its readings are aggregated from. */
export interface Segment {
  source: SegmentSource;
  from: Date;
  to: Date;
}

const ROLLUP_UNITS: readonly { source: SegmentSource; minutes: number }[] = [
  { source: 'daily', minutes: 1440 },
  { source: 'hourly', minutes: 60 },
];

const MINUTE_MS = 60_000;

function floorTo(time: number, unitMs: number): number {
  return Math.floor(time / unitMs) * unitMs;
}

function split(from: number, to: number, units: typeof ROLLUP_UNITS): Segment[] {
  if (from >= to) return [];
  const [unit, ...finer] = units;
  if (!unit) return [{ source: 'raw', from: new Date(from), to: new Date(to) }];
  const unitMs = unit.minutes * MINUTE_MS;
  const wholeFrom = Math.ceil(from / unitMs) * unitMs;
  const wholeTo = floorTo(to, unitMs);
  if (wholeFrom >= wholeTo) return split(from, to, finer);
  return [
    ...split(from, wholeFrom, finer),
    { source: unit.source, from: new Date(wholeFrom), to: new Date(wholeTo) },
    ...split(wholeTo, to, finer),
  ];
}

/**
 * Covers [start, end) with whole UTC days and hours from the rollups and raw readings at the
 * edges. With a bucket size, a rollup unit is used only when each of its periods lies inside one
 * bucket (the bucket is a multiple of the unit and start is aligned on it), so grouping rollup rows
 * by bucket gives the same answer as grouping raw readings.
 */
export function planSegments(start: Date, end: Date, bucketMinutes?: number): Segment[] {
  const units = ROLLUP_UNITS.filter(
    (u) =>
      bucketMinutes === undefined ||
      (bucketMinutes % u.minutes === 0 && start.getTime() % (u.minutes * MINUTE_MS) === 0),
  );
  return split(start.getTime(), end.getTime(), units);
}

/**
 * Covers [start, end) for buckets that start at the given instants (ascending, the first at or
 * before start, each lasting until the next): each bucket's part of the range is covered on its
 * own (whole UTC days and hours from the rollups, raw readings where a bucket edge cuts an hour),
 * so that every rollup period used lies inside one bucket; neighbouring segments of one source are
 * then joined.
 */
export function planBucketSegments(bucketStarts: readonly number[], start: Date, end: Date): Segment[] {
  const segments: Segment[] = [];
  bucketStarts.forEach((bucketStart, index) => {
    const from = Math.max(bucketStart, start.getTime());
    const to = Math.min(bucketStarts[index + 1] ?? Number.POSITIVE_INFINITY, end.getTime());
    for (const segment of split(from, to, ROLLUP_UNITS)) {
      const last = segments.at(-1);
      if (last?.source === segment.source && last.to.getTime() === segment.from.getTime()) last.to = segment.to;
      else segments.push(segment);
    }
  });
  return segments;
}
