import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import { arrayLiteral } from './array-literal.ts';
import { planBucketSegments, planSegments, type Segment, type SegmentSource } from './range-plan.ts';
import { combineRollups, ROLLUP_SOURCES } from './rollup-sql.ts';
import { ENERGY, type EnergyTotals, type Measure, type MicroTotals, type Report, rounded } from './totals.ts';

export interface TimeRange {
  start: Date;
  end: Date;
}

// How each measure is read from its text: sums stay exact text (the report converts them to units,
// much cheaper than in SQL), counts and maximums are numbers.
const exact = (text: string) => text;
const FROM_TEXT: Record<Measure, (text: string) => string | number> = {
  import_uwh: exact,
  export_uwh: exact,
  uvarh: exact,
  readings: Number,
  sum_power_uw: exact,
  max_power_kw: Number,
  sum_uva: exact,
  max_kva: Number,
};

interface TotalsQuery<T> {
  report: Report<T>;
  accountId: string;
  meterIds: readonly number[];
  segments: readonly Segment[];
  /** The bucket of a row, an expression of bucket_start: totals per meter and bucket (else per meter). */
  bucket?: (params: SqlParams) => string;
}

const span = (from: Date, to: Date) => to.getTime() - from.getTime();

/**
 * Up to this many sparse segments of a source are read as ranges of their own (the planner sees
 * each). A union of more made PostgreSQL plan a parallel append, whose workers cost more than the
 * work (a year by month of the demo building: 40 ms instead of 2).
 */
const MAX_SEPARATE_RANGES = 4;

/**
 * Rollup-shaped rows of one source over its segments (ascending, apart), read so that the planner
 * sees what each part holds. Segments that fill most of the span from the first to the last are
 * read as that span, keeping the rows inside a segment (a time is inside one when more segments
 * start than end at or before it); a few sparse ones (the edges of a sum) as ranges of their own;
 * many sparse ones (the hours around the month edges of a year, the hours a year of local days
 * cuts in a half-hour zone) by an index scan each.
 */
function sourceRows(source: SegmentSource, segments: readonly Segment[], meters: string, params: SqlParams) {
  const { select, time } = ROLLUP_SOURCES[source];
  const instant = (date: Date) => `${params.add(date.toISOString())}::timestamptz`;
  const bounds = (pick: (segment: Segment) => Date) =>
    `${params.add(arrayLiteral(segments.map((s) => pick(s).toISOString())))}::timestamptz[]`;
  const within = (from: string, to: string) =>
    `${select} WHERE meter_id = ANY(${meters}::int[]) AND ${time} >= ${from} AND ${time} < ${to}`;
  const [first, last] = [segments[0]!, segments.at(-1)!];
  const covered = segments.reduce((total, s) => total + span(s.from, s.to), 0);
  if (2 * covered >= span(first.from, last.to)) {
    const rows = within(instant(first.from), instant(last.to));
    if (segments.length === 1) return `(${rows}) s`;
    return `(${rows} AND width_bucket(${time}, ${bounds((s) => s.from)}) > width_bucket(${time}, ${bounds((s) => s.to)})) s`;
  }
  if (segments.length <= MAX_SEPARATE_RANGES) {
    return `(${segments.map((s) => within(instant(s.from), instant(s.to))).join(' UNION ALL ')}) s`;
  }
  return `unnest(${bounds((s) => s.from)}, ${bounds((s) => s.to)}) AS r(seg_from, seg_to)
    CROSS JOIN LATERAL (${within('r.seg_from', 'r.seg_to')}) s`;
}

function bySource(segments: readonly Segment[]): Map<SegmentSource, Segment[]> {
  const groups = new Map<SegmentSource, Segment[]>();
  for (const segment of segments) groups.set(segment.source, [...(groups.get(segment.source) ?? []), segment]);
  return groups;
}

interface TotalsRow<T> {
  meterId: number;
  /** Without a bucket expression: null. */
  bucket: number | null;
  totals: T;
}

const wholeDaysOnly = (segments: readonly Segment[]) => segments.length === 1 && segments[0]!.source === 'daily';

/**
 * The report's totals of the meters' readings in the segments, per meter (and bucket), ordered by
 * meter and bucket. Each source is grouped on its own first, so that raw values are added as
 * integers.
 */
async function totals<T>(db: Executor, query: TotalsQuery<T>): Promise<TotalsRow<T>[]> {
  const { measures } = query.report;
  const combine = combineRollups(measures);
  const params = new SqlParams();
  const groups = query.bucket ? 'meter_id, bucket' : 'meter_id';
  const keys = query.bucket ? `meter_id, ${query.bucket(params)} AS bucket` : 'meter_id';
  const meterIds = [...new Set(query.meterIds)];
  const meters = params.add(arrayLiteral(meterIds));
  const parts = [...bySource(query.segments)].map(
    ([source, segments]) =>
      `SELECT ${keys}, ${combine} FROM ${sourceRows(source, segments, meters, params)} GROUP BY ${groups}`,
  );
  // One part is already grouped; several are combined.
  const combined =
    parts.length === 1
      ? parts[0]
      : `SELECT ${groups}, ${combine} FROM (${parts.join(' UNION ALL ')}) p GROUP BY ${groups}`;
  // Repositories never trust ids alone: nothing unless every meter belongs to the organization.
  // (Checked once, outside the parts, so that the planner sees the ids and aggregates by hash.)
  // The rows come as one text, their values one after the other apart by commas (none is null): a
  // month of 30-minute buckets as rows cost node-postgres an object and a string per value, about
  // 1.5 ms more than splitting the text.
  const [result] = await db.query<{ rows: string | null }>(
    `SELECT string_agg(concat_ws(',', ${groups}, ${measures.join(', ')}), ',' ORDER BY ${groups}) AS rows
     FROM (${combined}) c
     WHERE (SELECT count(*) FROM meters WHERE id = ANY(${meters}::int[]) AND account_id = ${params.add(query.accountId)})
       = cardinality(${meters}::int[])`,
    params.values,
    // Whole days only: whatever the meters and days, the plan is an index range scan of the daily
    // rollups, so a plan made once serves every run. So too one meter's sums: range scans of its
    // readings and rollups whatever the range (a round trip for 7 days from now 1.0 -> 0.66 ms, for a
    // year 0.94 -> 0.72 ms). Not so with many meters and raw readings or hours.
    { reusePlan: wholeDaysOnly(query.segments) || (meterIds.length === 1 && !query.bucket) },
  );
  if (!result?.rows) return [];
  const values = result.rows.split(',');
  const first = query.bucket ? 2 : 1;
  const width = first + measures.length;
  const rows: TotalsRow<T>[] = [];
  for (let at = 0; at < values.length; at += width) {
    const row = {} as Record<Measure, string | number>;
    for (let i = 0; i < measures.length; i++) row[measures[i]!] = FROM_TEXT[measures[i]!](values[at + first + i]!);
    rows.push({
      meterId: Number(values[at]),
      bucket: query.bucket ? Number(values[at + 1]) : null,
      totals: query.report.totals(row as unknown as MicroTotals),
    });
  }
  return rows;
}

/** How a profile's range is cut into buckets: a number of minutes counted from start, or the given bucket starts. */
export type Bucketing = { minutes: number } | { starts: readonly number[] };

/** One meter's totals in one bucket (index: its position among the range's buckets). */
export interface BucketTotals<T> {
  meterId: number;
  index: number;
  totals: T;
}

export const aggregatesRepository = {
  /** Totals per meter over the range; meters without readings are absent. */
  async sums(db: Executor, accountId: string, meterIds: readonly number[], range: TimeRange) {
    const segments = planSegments(range.start, range.end);
    const rows = await totals<EnergyTotals>(db, { report: ENERGY, accountId, meterIds, segments });
    return new Map(rows.map((r) => [r.meterId, r.totals]));
  },

  /**
   * The meters' totals per bucket of the range; only buckets with readings, ordered by meter and
   * bucket. Whole days and hours come from the rollups wherever each of their periods lies inside
   * one bucket, raw readings for the rest.
   */
  async profile<T>(
    db: Executor,
    report: Report<T>,
    accountId: string,
    meterIds: readonly number[],
    range: TimeRange,
    bucketing: Bucketing,
  ): Promise<BucketTotals<T>[]> {
    // Either way a row's bucket is its index among the range's buckets: an integer, no timestamp to parse.
    const bucketed =
      'minutes' in bucketing
        ? {
            segments: planSegments(range.start, range.end, bucketing.minutes),
            bucket: (params: SqlParams) =>
              `div(extract(epoch FROM bucket_start - ${params.add(range.start.toISOString())}::timestamptz), ${params.add(bucketing.minutes * 60)}::int)::int`,
          }
        : {
            segments: planBucketSegments(bucketing.starts, range.start, range.end),
            bucket: (params: SqlParams) =>
              `width_bucket(bucket_start, ${params.add(arrayLiteral(bucketing.starts.map((s) => new Date(s).toISOString())))}::timestamptz[]) - 1`,
          };
    const rows = await totals(db, { report, accountId, meterIds, ...bucketed });
    return rows.map(({ meterId, bucket, totals }) => ({ meterId, index: bucket!, totals }));
  },

  /** The last reading in the range, if any. */
  async latest(db: Executor, accountId: string, meterId: number, range: TimeRange) {
    const [row] = await db.query<{ ts: Date; power_kw: number; kva: number }>(
      `SELECT ts, power_kw, kva
       FROM readings
       WHERE meter_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz
         AND meter_id IN (SELECT id FROM meters WHERE account_id = $4)
       ORDER BY ts DESC LIMIT 1`,
      [meterId, range.start.toISOString(), range.end.toISOString(), accountId],
    );
    return row && { ts: row.ts, power_kw: rounded(row.power_kw), kva: rounded(row.kva) };
  },
};
