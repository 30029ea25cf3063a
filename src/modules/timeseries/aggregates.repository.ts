import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import { arrayLiteral } from './array-literal.ts';
import { planSegments } from './range-plan.ts';
import { combineRollups, ROLLUP_SOURCES } from './rollup-sql.ts';
import { ENERGY, type EnergyTotals, type Measure, type MicroTotals, type Report, rounded } from './totals.ts';

export interface TimeRange {
  start: Date;
  end: Date;
}

// Sums as exact text (the conversion to units is done by the report, much cheaper than in SQL).
const AS_SENT: Record<Measure, string> = {
  import_uwh: 'import_uwh::text',
  export_uwh: 'export_uwh::text',
  uvarh: 'uvarh::text',
  readings: 'readings::int',
  sum_power_uw: 'sum_power_uw::text',
  max_power_kw: 'max_power_kw',
  sum_uva: 'sum_uva::text',
  max_kva: 'max_kva',
};

interface TotalsQuery<T> {
  report: Report<T>;
  accountId: string;
  meterIds: readonly number[];
  range: TimeRange;
  /** What the totals are grouped by: an expression of meter_id and bucket_start. */
  key: (params: SqlParams) => string;
  bucketMinutes?: number;
}

/**
 * The report's totals of the meters' readings in [start, end) per key, ordered by key: whole days
 * and hours from the rollups (when bucketMinutes allows), raw readings for the rest. Each part is
 * grouped on its own first, so that raw values are added as integers.
 */
async function totals<K, T>(db: Executor, query: TotalsQuery<T>) {
  const { measures } = query.report;
  const combine = combineRollups(measures);
  const params = new SqlParams();
  const key = query.key(params);
  const meters = params.add(arrayLiteral(query.meterIds));
  const segments = planSegments(query.range.start, query.range.end, query.bucketMinutes);
  const parts = segments.map(({ source, from, to }) => {
    const { select, time } = ROLLUP_SOURCES[source];
    return `SELECT ${key} AS key, ${combine} FROM (
        ${select}
        WHERE meter_id = ANY(${meters}::int[])
          AND ${time} >= ${params.add(from.toISOString())}::timestamptz AND ${time} < ${params.add(to.toISOString())}::timestamptz
      ) s GROUP BY 1`;
  });
  // One part is already grouped by key; several are combined.
  const combined =
    parts.length === 1 ? parts[0] : `SELECT key, ${combine} FROM (${parts.join(' UNION ALL ')}) p GROUP BY key`;
  // Repositories never trust ids alone: nothing unless every meter belongs to the organization.
  // (Checked once, outside the parts, so that the planner sees the ids and aggregates by hash.)
  const rows = await db.query<MicroTotals & { key: K }>(
    `SELECT key, ${measures.map((m) => `${AS_SENT[m]} AS ${m}`).join(', ')} FROM (${combined}) c
     WHERE (SELECT count(*) FROM meters WHERE id = ANY(${meters}::int[]) AND account_id = ${params.add(query.accountId)})
       = cardinality(${meters}::int[])
     ORDER BY key`,
    params.values,
    // Whole days only: whatever the meters and days, the plan is an index range scan of the daily
    // rollups, so a plan made once serves every run. (Not so with raw readings or hours.)
    { reusePlan: segments.length === 1 && segments[0]!.source === 'daily' },
  );
  return rows.map((row) => ({ key: row.key, totals: query.report.totals(row) }));
}

export const aggregatesRepository = {
  /** Totals per meter over the range; meters without readings are absent. */
  async sums(db: Executor, accountId: string, meterIds: readonly number[], range: TimeRange) {
    const rows = await totals<number, EnergyTotals>(db, {
      report: ENERGY,
      accountId,
      meterIds,
      range,
      key: () => 'meter_id',
    });
    return new Map(rows.map((r) => [r.key, r.totals]));
  },

  /** Totals per bucket (key: its start) of bucketMinutes counted from start; only buckets with readings, ascending. */
  async profile<T>(
    db: Executor,
    report: Report<T>,
    accountId: string,
    meterId: number,
    range: TimeRange,
    bucketMinutes: number,
  ) {
    const key = (params: SqlParams) =>
      `date_bin(make_interval(mins => ${params.add(bucketMinutes)}::int), bucket_start, ${params.add(range.start.toISOString())}::timestamptz)`;
    return totals<Date, T>(db, { report, accountId, meterIds: [meterId], range, key, bucketMinutes });
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
