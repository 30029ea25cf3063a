import type { Executor } from '../../db/types.ts';
import { COMBINE_ROLLUPS, ROLLUP_COLUMNS, ROLLUP_SOURCES } from './rollup-sql.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const UPDATE_ALL = ROLLUP_COLUMNS.split(', ')
  .slice(2)
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

/** Recomputes the given periods of one rollup table from the level below it. */
function refreshSql(table: string, below: { select: string; time: string }, width: string): string {
  return `INSERT INTO ${table} (${ROLLUP_COLUMNS})
    SELECT t.meter_id, t.period_start, ${COMBINE_ROLLUPS}
    FROM unnest($1::int[], $2::timestamptz[]) AS t(meter_id, period_start)
    JOIN LATERAL (
      ${below.select}
      WHERE meter_id = t.meter_id AND ${below.time} >= t.period_start AND ${below.time} < t.period_start + interval '${width}'
    ) src ON true
    GROUP BY t.meter_id, t.period_start
    ON CONFLICT (meter_id, bucket_start) DO UPDATE SET ${UPDATE_ALL}`;
}

const REFRESH_HOURLY = refreshSql('readings_hourly', ROLLUP_SOURCES.raw, '1 hour');
// Days from hours: exact, because the rollups' sums are numeric.
const REFRESH_DAILY = refreshSql('readings_daily', ROLLUP_SOURCES.hourly, '24 hours');

/** The distinct (meter, period start) pairs the readings fall in, as two parallel arrays. */
function periodsOf(readings: readonly { meter_id: number; ts: Date }[], periodMs: number): [number[], string[]] {
  const seen = new Set<string>();
  const meterIds: number[] = [];
  const starts: string[] = [];
  for (const { meter_id, ts } of readings) {
    const start = Math.floor(ts.getTime() / periodMs) * periodMs;
    const key = `${meter_id}:${start}`;
    if (seen.has(key)) continue;
    seen.add(key);
    meterIds.push(meter_id);
    starts.push(new Date(start).toISOString());
  }
  return [meterIds, starts];
}

/**
 * Recomputes the hourly and daily rollups of every (meter, UTC hour) and (meter, UTC day) the
 * written readings fall in. Run in the transaction that wrote them, after the write.
 */
export async function refreshRollups(tx: Executor, written: readonly { meter_id: number; ts: Date }[]): Promise<void> {
  if (written.length === 0) return;
  await tx.query(REFRESH_HOURLY, periodsOf(written, HOUR_MS));
  await tx.query(REFRESH_DAILY, periodsOf(written, DAY_MS));
}
