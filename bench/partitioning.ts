import type { Database } from '../src/db/types.ts';

/** The tables a benchmark may partition by month, with their time column. */
const MONTHLY = [
  { table: 'readings', column: 'ts' },
  { table: 'readings_hourly', column: 'bucket_start' },
] as const;

const monthStart = (year: number, month: number) => new Date(Date.UTC(year, month, 1)).toISOString();

/**
 * Replaces the (empty) readings and hourly rollups of a migrated benchmark database by tables of
 * the same columns, keys and defaults, partitioned by UTC month over [from, to), with a default
 * partition for anything else. The daily rollups stay one table (a meter-year is 365 rows).
 */
export async function partitionByMonth(db: Database, from: number, to: number): Promise<number> {
  const first = new Date(from);
  let partitions = 0;
  for (const { table, column } of MONTHLY) {
    await db.query(`CREATE TABLE ${table}_by_month (LIKE ${table} INCLUDING ALL) PARTITION BY RANGE (${column})`);
    partitions = 0;
    for (let month = first.getUTCMonth(); Date.parse(monthStart(first.getUTCFullYear(), month)) < to; month++) {
      const lower = monthStart(first.getUTCFullYear(), month);
      const name = `${table}_${lower.slice(0, 7).replace('-', '_')}`;
      await db.query(
        `CREATE TABLE ${name} PARTITION OF ${table}_by_month FOR VALUES FROM ('${lower}') TO ('${monthStart(first.getUTCFullYear(), month + 1)}')`,
      );
      partitions++;
    }
    await db.query(`CREATE TABLE ${table}_other PARTITION OF ${table}_by_month DEFAULT`);
    await db.query(`DROP TABLE ${table}`);
    await db.query(`ALTER TABLE ${table}_by_month RENAME TO ${table}`);
  }
  return partitions;
}

/**
 * What one read costs the database, whatever the load of the machine: the buffers it touches
 * (shared hits and reads, planning included) and the median planning and execution time of five
 * runs, by EXPLAIN (ANALYZE, BUFFERS).
 */
export async function explainRead(db: Database, sql: string, params: unknown[]) {
  const runs = [];
  for (let run = 0; run < 5; run++) {
    const [row] = await db.query<{ 'QUERY PLAN': [ExplainedPlan] }>(
      `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
      params,
    );
    const explained = row!['QUERY PLAN'][0];
    const buffers = (counts: BufferCounts = {}) =>
      (counts['Shared Hit Blocks'] ?? 0) + (counts['Shared Read Blocks'] ?? 0);
    runs.push({
      buffers: buffers(explained.Plan) + buffers(explained.Planning),
      ms: explained['Planning Time'] + explained['Execution Time'],
    });
  }
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b)[2]!;
  return { buffers: runs[runs.length - 1]!.buffers, ms };
}

type BufferCounts = { 'Shared Hit Blocks'?: number; 'Shared Read Blocks'?: number };
interface ExplainedPlan {
  Plan: BufferCounts;
  Planning?: BufferCounts;
  'Planning Time': number;
  'Execution Time': number;
}
