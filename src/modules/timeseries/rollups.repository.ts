import { BinaryCopyRows } from '../../db/copy-binary.ts';
import { unlessDuplicate } from '../../db/savepoint.ts';
import type { Executor, Transaction } from '../../db/types.ts';
import { arrayLiteral } from './array-literal.ts';
import { STAGED_READINGS } from './readings.repository.ts';
import type { RollupRow } from './rollup-deltas.ts';
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
 * The hours and the days holding a staged reading, merged per meter into runs of consecutive
 * periods: a batch of consecutive readings is one run per meter, scattered readings touch only
 * their own periods.
 */
const TOUCHED_RUNS = `WITH
    hours AS (SELECT DISTINCT s.meter_id, date_bin(interval '1 hour', s.ts, ${EPOCH}) AS period FROM ${STAGED_READINGS}),
    days AS (SELECT DISTINCT meter_id, date_bin(interval '24 hours', period, ${EPOCH}) AS period FROM hours)
  SELECT * FROM (${runs('1 hour', 'hours', 'hour')}) h, (${runs('24 hours', 'days', 'day')}) d`;

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
 * hold a staged reading (STAGED_READINGS), from the readings as now stored. Run in the transaction
 * that wrote the readings, after the write. The touched periods are found first and sent back as
 * arrays, so that each run is recomputed by an index range scan whatever the planner guesses.
 */
export async function refreshRollups(tx: Executor): Promise<void> {
  const [runs] = await tx.query<TouchedRuns>(TOUCHED_RUNS);
  if (!runs?.hour_meters) return;
  const hours = [runs.hour_meters, runs.hour_starts, runs.hour_ends];
  for (const statement of REFRESH_HOURLY) await tx.query(statement, hours);
  const days = [runs.day_meters, runs.day_starts, runs.day_ends];
  for (const statement of REFRESH_DAILY) await tx.query(statement, days);
}

const COLUMNS = ROLLUP_COLUMNS.split(', ');

/** Rollup rows in the binary form of COPY. */
export function binaryRollups(rows: readonly RollupRow[]): Buffer<ArrayBuffer> {
  const copy = new BinaryCopyRows(rows.length, [
    'int4',
    'timestamptz',
    'int8',
    'int8',
    'int8',
    'int4',
    'int8',
    'float8',
    'int8',
    'float8',
  ]);
  for (const r of rows) {
    copy.row().int4(r.meter_id).timestamptz(r.bucket_start).int8(r.import_uwh).int8(r.export_uwh).int8(r.uvarh);
    copy.int4(r.readings).int8(r.sum_power_uw).float8(r.max_power_kw).int8(r.sum_uva).float8(r.max_kva);
  }
  return copy.finish();
}

/** Adds rows to those of the same (meter, bucket) in table, or inserts them. */
async function addToExisting(tx: Executor, table: string, rows: readonly RollupRow[]): Promise<void> {
  const column = (pick: (row: RollupRow) => number | bigint | string) => arrayLiteral(rows.map(pick));
  const sum = (name: string) => `${name} = t.${name} + excluded.${name}`;
  const max = (name: string) => `${name} = greatest(t.${name}, excluded.${name})`;
  await tx.query(
    `INSERT INTO ${table} AS t (${ROLLUP_COLUMNS})
     SELECT * FROM unnest($1::int[], $2::timestamptz[], $3::int8[], $4::int8[], $5::int8[], $6::int[], $7::int8[],
       $8::float8[], $9::int8[], $10::float8[])
     ON CONFLICT (meter_id, bucket_start) DO UPDATE SET ${sum('import_uwh')}, ${sum('export_uwh')}, ${sum('uvarh')},
       ${sum('readings')}, ${sum('sum_power_uw')}, ${max('max_power_kw')}, ${sum('sum_uva')}, ${max('max_kva')}`,
    [
      column((r) => r.meter_id),
      column((r) => new Date(r.bucket_start).toISOString()),
      column((r) => r.import_uwh),
      column((r) => r.export_uwh),
      column((r) => r.uvarh),
      column((r) => r.readings),
      column((r) => r.sum_power_uw),
      column((r) => r.max_power_kw),
      column((r) => r.sum_uva),
      column((r) => r.max_kva),
    ],
  );
}

/**
 * Rollup rows to add: the hours as their COPY data (binaryRollups), and as rows when asked for (only
 * when some of the hours already have a row).
 */
export interface RollupDeltas {
  hourly: { rows: () => readonly RollupRow[]; copy: Buffer<ArrayBuffer> };
  daily: { rows: readonly RollupRow[] };
}

/**
 * Adds the rollups of newly inserted readings (rollupDeltas) to the stored ones. Hours: a bulk load
 * when none of them has a row yet, the common case of new data, else an upsert that adds them.
 * Days: always that upsert. They are few (at most one per 24 hours), and a batch usually shares
 * its first day with the batch before, so a bulk load of them would mostly fail and be redone.
 */
export async function addToRollups(tx: Transaction, deltas: RollupDeltas) {
  if (!(await unlessDuplicate(tx, () => tx.copyBinary('readings_hourly', COLUMNS, deltas.hourly.copy)))) {
    await addToExisting(tx, 'readings_hourly', deltas.hourly.rows());
  }
  await addToExisting(tx, 'readings_daily', deltas.daily.rows);
}
