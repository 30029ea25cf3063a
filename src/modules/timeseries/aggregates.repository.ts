import type { Executor } from '../../db/types.ts';
import { SqlParams } from '../../http/list.ts';
import { arrayLiteral } from './array-literal.ts';
import { planSegments } from './range-plan.ts';
import { COMBINE_ROLLUPS, ROLLUP_SOURCES } from './rollup-sql.ts';
import { type MicroTotals, reportTotals, rounded } from './totals.ts';

export interface TimeRange {
  start: Date;
  end: Date;
}

// Sums as exact text (the conversion to units is done in reportTotals, much cheaper than in SQL).
const MICRO_TOTALS = `import_uwh::text AS import_uwh, export_uwh::text AS export_uwh, uvarh::text AS uvarh,
  readings::int AS readings, sum_power_uw::text AS sum_power_uw, max_power_kw, sum_uva::text AS sum_uva, max_kva`;

interface TotalsQuery {
  accountId: string;
  meterIds: readonly number[];
  range: TimeRange;
  /** What the totals are grouped by: an expression of meter_id and bucket_start. */
  key: (params: SqlParams) => string;
  bucketMinutes?: number;
}

/**
 * Totals of the meters' readings in [start, end) per key, ordered by key: whole days and hours
 * from the rollups (when bucketMinutes allows), raw readings for the rest. Each part is grouped on
 * its own first, so that raw values are added as integers.
 */
async function totals<K>(db: Executor, query: TotalsQuery) {
  const params = new SqlParams();
  const key = query.key(params);
  const meters = params.add(arrayLiteral(query.meterIds));
  const parts = planSegments(query.range.start, query.range.end, query.bucketMinutes).map(({ source, from, to }) => {
    const { select, time } = ROLLUP_SOURCES[source];
    return `SELECT ${key} AS key, ${COMBINE_ROLLUPS} FROM (
        ${select}
        WHERE meter_id = ANY(${meters}::int[])
          AND ${time} >= ${params.add(from.toISOString())}::timestamptz AND ${time} < ${params.add(to.toISOString())}::timestamptz
      ) s GROUP BY 1`;
  });
  // One part is already grouped by key; several are combined.
  const combined =
    parts.length === 1 ? parts[0] : `SELECT key, ${COMBINE_ROLLUPS} FROM (${parts.join(' UNION ALL ')}) p GROUP BY key`;
  // Repositories never trust ids alone: nothing unless every meter belongs to the organization.
  // (Checked once, outside the parts, so that the planner sees the ids and aggregates by hash.)
  const rows = await db.query<MicroTotals & { key: K }>(
    `SELECT key, ${MICRO_TOTALS} FROM (${combined}) c
     WHERE (SELECT count(*) FROM meters WHERE id = ANY(${meters}::int[]) AND account_id = ${params.add(query.accountId)})
       = cardinality(${meters}::int[])
     ORDER BY key`,
    params.values,
  );
  return rows.map((row) => ({ key: row.key, totals: reportTotals(row) }));
}

export const aggregatesRepository = {
  /** Totals per meter over the range; meters without readings are absent. */
  async sums(db: Executor, accountId: string, meterIds: readonly number[], range: TimeRange) {
    const rows = await totals<number>(db, { accountId, meterIds, range, key: () => 'meter_id' });
    return new Map(rows.map((r) => [r.key, r.totals]));
  },

  /** Totals per bucket (key: its start) of bucketMinutes counted from start; only buckets with readings, ascending. */
  async profile(db: Executor, accountId: string, meterId: number, range: TimeRange, bucketMinutes: number) {
    const key = (params: SqlParams) =>
      `date_bin(make_interval(mins => ${params.add(bucketMinutes)}::int), bucket_start, ${params.add(range.start.toISOString())}::timestamptz)`;
    return totals<Date>(db, { accountId, meterIds: [meterId], range, key, bucketMinutes });
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
