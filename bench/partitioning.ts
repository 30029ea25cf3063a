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
