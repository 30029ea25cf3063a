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
