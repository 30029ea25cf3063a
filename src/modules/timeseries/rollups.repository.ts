import type { Executor } from '../../db/types.ts';
import { SqlParams } from '../../http/list.ts';
import type { ReadingSource } from './readings.repository.ts';
import { COMBINE_ROLLUPS, ROLLUP_COLUMNS, ROLLUP_SOURCES } from './rollup-sql.ts';

const EPOCH = `timestamptz '1970-01-01 00:00:00+00'`;

/** Per meter, the runs of consecutive periods of width in a relation (meter_id, period), as array literals. */
function runs(width: string, periods: string, prefix: string): string {
  return `SELECT array_agg(meter_id)::text AS ${prefix}_meters, array_agg(run_start)::text AS ${prefix}_starts,
      array_agg(run_end)::text AS ${prefix}_ends
    FROM (
      SELECT meter_id, min(period) AS run_start, max(period) + interval '${width}' AS run_end
      FROM (
        SELECT meter_id, period,
          period - interval '${width}' * row_number() OVER (PARTITION BY meter_id ORDER BY period) AS run
        FROM ${periods}
      ) numbered
      GROUP BY meter_id, run
    ) runs`;
}

/**
 * The hours and the days holding a written reading, merged per meter into runs of consecutive
 * periods: a batch of consecutive readings is one run per meter, scattered readings touch only
 * their own periods.
 */
function touchedRunsSql(keys: string): string {
  return `WITH hours AS (SELECT DISTINCT s.meter_id, date_bin(interval '1 hour', s.ts, ${EPOCH}) AS period FROM ${keys}),
      days AS (SELECT DISTINCT meter_id, date_bin(interval '24 hours', period, ${EPOCH}) AS period FROM hours)
    SELECT * FROM (${runs('1 hour', 'hours', 'hour')}) h, (${runs('24 hours', 'days', 'day')}) d`;
}

interface TouchedRuns {
  hour_meters: string | null;
  hour_starts: string;
  hour_ends: string;
  day_meters: string | null;
  day_starts: string;
  day_ends: string;
}

const RUNS = 'unnest($1::int[], $2::timestamptz[], $3::timestamptz[]) AS t(meter_id, run_start, run_end)';

/**
 * Recomputes, for each run, every period of one rollup table inside it, from the level below: the
 * old rows are deleted and the new ones inserted, which costs about half of an upsert per row.
 */
function refreshSql(table: string, below: { select: string; time: string }, width: string): string[] {
  return [
    `DELETE FROM ${table} p USING ${RUNS}
     WHERE p.meter_id = t.meter_id AND p.bucket_start >= t.run_start AND p.bucket_start < t.run_end`,
    `INSERT INTO ${table} (${ROLLUP_COLUMNS})
     SELECT t.meter_id, date_bin(interval '${width}', src.bucket_start, ${EPOCH}), ${COMBINE_ROLLUPS}
     FROM ${RUNS}
     JOIN LATERAL (
       ${below.select}
       WHERE meter_id = t.meter_id AND ${below.time} >= t.run_start AND ${below.time} < t.run_end
     ) src ON true
     GROUP BY 1, 2`,
  ];
}

const REFRESH_HOURLY = refreshSql('readings_hourly', ROLLUP_SOURCES.raw, '1 hour');
// Days from hours: exact, because the rollups' sums are integers.
const REFRESH_DAILY = refreshSql('readings_daily', ROLLUP_SOURCES.hourly, '24 hours');

/**
 * Recomputes the hourly and daily rollups (UTC hours and days) of exactly the hours and days that
 * hold a written reading, from the readings as now stored. Run in the transaction that wrote the
 * readings, after the write. The touched periods are found first and sent back as arrays, so that
 * each run is recomputed by an index range scan whatever the planner guesses of the source.
 */
export async function refreshRollups(tx: Executor, source: ReadingSource): Promise<void> {
  const params = new SqlParams();
  const [runs] = await tx.query<TouchedRuns>(touchedRunsSql(source.keys(params)), params.values);
  if (!runs?.hour_meters) return;
  const hours = [runs.hour_meters, runs.hour_starts, runs.hour_ends];
  for (const statement of REFRESH_HOURLY) await tx.query(statement, hours);
  const days = [runs.day_meters, runs.day_starts, runs.day_ends];
  for (const statement of REFRESH_DAILY) await tx.query(statement, days);
}
