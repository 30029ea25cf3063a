import type { Executor } from '../../db/types.ts';
import { SqlParams } from '../../http/list.ts';
import { planSegments } from './range-plan.ts';
import { COMBINE_ROLLUPS, ROLLUP_SOURCES } from './rollup-sql.ts';

export interface TimeRange {
  start: Date;
  end: Date;
}

/** What every query reports of a set of readings; every value rounded to 6 decimals. */
export interface Totals {
  import_kwh: number;
  export_kwh: number;
  net_kwh: number;
  kvarh: number;
  readings: number;
  avg_kw: number;
  max_kw: number;
  avg_kva: number;
  max_kva: number;
}

const TOTALS = `round(import_kwh, 6)::float8 AS import_kwh, round(export_kwh, 6)::float8 AS export_kwh,
  round(import_kwh - export_kwh, 6)::float8 AS net_kwh, round(kvarh, 6)::float8 AS kvarh, readings::int AS readings,
  round(sum_power_kw / readings, 6)::float8 AS avg_kw, round(max_power_kw::numeric, 6)::float8 AS max_kw,
  round(sum_kva / readings, 6)::float8 AS avg_kva, round(max_kva::numeric, 6)::float8 AS max_kva`;

/**
 * The readings of the meters in [start, end) as rollup-shaped rows: whole days and hours from the
 * rollups (when bucketMinutes allows), raw readings for the rest.
 */
function segmentsUnion(params: SqlParams, meterIds: readonly number[], range: TimeRange, bucketMinutes?: number) {
  const meters = params.add(meterIds);
  return planSegments(range.start, range.end, bucketMinutes)
    .map(({ source, from, to }) => {
      const { select, time } = ROLLUP_SOURCES[source];
      return `${select} WHERE meter_id = ANY(${meters}::int[])
        AND ${time} >= ${params.add(from.toISOString())}::timestamptz AND ${time} < ${params.add(to.toISOString())}::timestamptz`;
    })
    .join(' UNION ALL ');
}

/** Keeps only meters of the organization: repositories never trust ids alone. */
function ofAccount(params: SqlParams, accountId: string): string {
  return `meter_id IN (SELECT id FROM meters WHERE account_id = ${params.add(accountId)})`;
}

export const aggregatesRepository = {
  /** Totals per meter over the range; meters without readings are absent. */
  async sums(db: Executor, accountId: string, meterIds: readonly number[], range: TimeRange) {
    const params = new SqlParams();
    const union = segmentsUnion(params, meterIds, range);
    const rows = await db.query<Totals & { meter_id: number }>(
      `SELECT meter_id, ${TOTALS} FROM (
         SELECT meter_id, ${COMBINE_ROLLUPS} FROM (${union}) s WHERE ${ofAccount(params, accountId)} GROUP BY meter_id
       ) c`,
      params.values,
    );
    return new Map(rows.map((r) => [r.meter_id, r]));
  },

  /** Totals per bucket of bucketMinutes counted from start; only buckets with readings, ascending. */
  async profile(db: Executor, accountId: string, meterId: number, range: TimeRange, bucketMinutes: number) {
    const params = new SqlParams();
    const union = segmentsUnion(params, [meterId], range, bucketMinutes);
    const bucket = `date_bin(make_interval(mins => ${params.add(bucketMinutes)}::int), bucket_start, ${params.add(range.start.toISOString())}::timestamptz)`;
    return db.query<Totals & { ts: Date }>(
      `SELECT ts, ${TOTALS} FROM (
         SELECT ${bucket} AS ts, ${COMBINE_ROLLUPS} FROM (${union}) s WHERE ${ofAccount(params, accountId)} GROUP BY 1
       ) c ORDER BY ts`,
      params.values,
    );
  },

  /** The last reading in the range, if any. */
  async latest(db: Executor, accountId: string, meterId: number, range: TimeRange) {
    const [row] = await db.query<{ ts: Date; power_kw: number; kva: number }>(
      `SELECT ts, round(power_kw::numeric, 6)::float8 AS power_kw, round(kva::numeric, 6)::float8 AS kva
       FROM readings
       WHERE meter_id = $1 AND ts >= $2::timestamptz AND ts < $3::timestamptz
         AND meter_id IN (SELECT id FROM meters WHERE account_id = $4)
       ORDER BY ts DESC LIMIT 1`,
      [meterId, range.start.toISOString(), range.end.toISOString(), accountId],
    );
    return row;
  },
};
