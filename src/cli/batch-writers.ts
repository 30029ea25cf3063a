import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { PostgresDatabase } from '../db/postgres.ts';
import type { Database, Executor } from '../db/types.ts';
import type { StoredReading } from '../modules/timeseries/readings.ts';
import type { ReadingSource, WriteCounts } from '../modules/timeseries/readings.repository.ts';
import { storeReadings } from '../modules/timeseries/store-readings.ts';

/** Stores one batch of readings per call, each in its own transaction: a batch is stored whole or not at all. */
export interface BatchWriter {
  write(readings: readonly StoredReading[]): Promise<WriteCounts>;
  close(): Promise<void>;
}

const STAGING_TABLE = 'import_staging';
const STAGING_SOURCE: ReadingSource = () => `${STAGING_TABLE} s`;
const STAGING_COLUMNS = 'meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva';

function copyText(readings: readonly StoredReading[]): string {
  return readings
    .map(
      (r) =>
        `${r.meter_id}\t${r.ts.toISOString()}\t${r.import_kwh}\t${r.export_kwh}\t${r.kvarh}\t${r.power_kw}\t${r.kva}\n`,
    )
    .join('');
}

function clientExecutor(client: pg.PoolClient): Executor {
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      return (await client.query(text, [...params])).rows as T[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

/** PostgreSQL: COPY the batch into a session-local staging table, then upsert from it. */
async function copyWriter(db: PostgresDatabase, accountId: string): Promise<BatchWriter> {
  const client = await db.pool.connect();
  const tx = clientExecutor(client);
  await client.query(
    `CREATE TEMP TABLE IF NOT EXISTS ${STAGING_TABLE} (
       meter_id integer NOT NULL, ts timestamptz NOT NULL, import_kwh float8 NOT NULL, export_kwh float8 NOT NULL,
       kvarh float8 NOT NULL, power_kw float8 NOT NULL, kva float8 NOT NULL
     ) ON COMMIT DELETE ROWS`,
  );
  return {
    async write(readings) {
      await client.query('BEGIN');
      try {
        await pipeline(
          Readable.from([copyText(readings)]),
          client.query(copyFrom(`COPY ${STAGING_TABLE} (${STAGING_COLUMNS}) FROM STDIN`)),
        );
        const counts = await storeReadings(tx, accountId, readings, STAGING_SOURCE);
        await client.query('COMMIT');
        return counts;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      }
    },
    async close() {
      await client.query(`DROP TABLE IF EXISTS ${STAGING_TABLE}`).catch(() => {});
      client.release();
    },
  };
}

/** The embedded database: one multi-row upsert per batch. */
function upsertWriter(db: Database, accountId: string): BatchWriter {
  return {
    write: (readings) => db.transaction((tx) => storeReadings(tx, accountId, readings)),
    async close() {},
  };
}

export async function openBatchWriter(db: Database, accountId: string): Promise<BatchWriter> {
  return db.kind === 'postgres' ? copyWriter(db as PostgresDatabase, accountId) : upsertWriter(db, accountId);
}
