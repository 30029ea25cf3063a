import type { Executor } from '../../db/types.ts';
import { arrayLiteral } from './array-literal.ts';
import { COMBINE_ROLLUPS, ROLLUP_COLUMNS, ROLLUP_SOURCES } from './rollup-sql.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const UPDATE_ALL = ROLLUP_COLUMNS.split(', ')
  .slice(2)
  .map((c) => `${c} = excluded.${c}`)
  .join(', ');

/** Recomputes, for each meter, every period of one rollup table inside a span, from the level below. */
function refreshSql(table: string, below: { select: string; time: string }, width: string): string {
  return `INSERT INTO ${table} (${ROLLUP_COLUMNS})
    SELECT t.meter_id, date_bin(interval '${width}', src.bucket_start, timestamptz '1970-01-01 00:00:00+00'), ${COMBINE_ROLLUPS}
    FROM unnest($1::int[], $2::timestamptz[], $3::timestamptz[]) AS t(meter_id, span_start, span_end)
    JOIN LATERAL (
      ${below.select}
      WHERE meter_id = t.meter_id AND ${below.time} >= t.span_start AND ${below.time} < t.span_end
    ) src ON true
    GROUP BY 1, 2
    ON CONFLICT (meter_id, bucket_start) DO UPDATE SET ${UPDATE_ALL}`;
}

const REFRESH_HOURLY = refreshSql('readings_hourly', ROLLUP_SOURCES.raw, '1 hour');
// Days from hours: exact, because the rollups' sums are integers.
const REFRESH_DAILY = refreshSql('readings_daily', ROLLUP_SOURCES.hourly, '24 hours');

/** Per meter, the whole periods from its first to its last written reading, as parallel arrays. */
function spans(written: readonly { meter_id: number; ts: Date }[], periodMs: number): string[] {
  const byMeter = new Map<number, { first: number; last: number }>();
  for (const { meter_id, ts } of written) {
    const time = ts.getTime();
    const span = byMeter.get(meter_id);
    if (!span) byMeter.set(meter_id, { first: time, last: time });
    else {
      span.first = Math.min(span.first, time);
      span.last = Math.max(span.last, time);
    }
  }
  const floor = (time: number) => Math.floor(time / periodMs) * periodMs;
  const meters = [...byMeter.entries()];
  return [
    arrayLiteral(meters.map(([meterId]) => meterId)),
    arrayLiteral(meters.map(([, span]) => new Date(floor(span.first)).toISOString())),
    arrayLiteral(meters.map(([, span]) => new Date(floor(span.last) + periodMs).toISOString())),
  ];
}

/**
 * Recomputes the hourly and daily rollups (UTC hours and days) of each meter from the hour of
 * its first to the hour of its last written reading, and the same for days. Run in the
 * transaction that wrote the readings, after the write. Recomputing untouched periods inside
 * the span gives the values they already have, and one grouped scan per meter is cheaper than a
 * lookup per touched period.
 */
export async function refreshRollups(tx: Executor, written: readonly { meter_id: number; ts: Date }[]): Promise<void> {
  if (written.length === 0) return;
  await tx.query(REFRESH_HOURLY, spans(written, HOUR_MS));
  await tx.query(REFRESH_DAILY, spans(written, DAY_MS));
}
