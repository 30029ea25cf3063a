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
const STAGING_SOURCE: ReadingSource = { readings: () => `${STAGING_TABLE} s`, keys: () => `${STAGING_TABLE} s` };
const FLOAT_COLUMNS = ['import_kwh', 'export_kwh', 'kvarh', 'power_kw', 'kva'] as const;
const STAGING_COLUMNS = `meter_id, ts, ${FLOAT_COLUMNS.join(', ')}`;

const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const ROW_BYTES = 2 + (4 + 4) + (4 + 8) + FLOAT_COLUMNS.length * (4 + 8);

/**
 * The batch in COPY's binary format: PostgreSQL reads it without parsing text, which is much of
 * the cost of a text COPY of timestamps and floats.
 */
function copyBinary(readings: readonly StoredReading[]): Buffer {
  const buffer = Buffer.allocUnsafe(COPY_SIGNATURE.length + 8 + readings.length * ROW_BYTES + 2);
  let at = COPY_SIGNATURE.copy(buffer, 0);
  at = buffer.writeInt32BE(0, at); // flags
  at = buffer.writeInt32BE(0, at); // header extension length
  for (const reading of readings) {
    at = buffer.writeInt16BE(2 + FLOAT_COLUMNS.length, at);
    at = buffer.writeInt32BE(4, at);
    at = buffer.writeInt32BE(reading.meter_id, at);
    at = buffer.writeInt32BE(8, at);
    // timestamptz: microseconds since 2000-01-01 UTC.
    at = buffer.writeBigInt64BE(BigInt(reading.ts.getTime() - POSTGRES_EPOCH_MS) * 1000n, at);
    for (const column of FLOAT_COLUMNS) {
      at = buffer.writeInt32BE(8, at);
      at = buffer.writeDoubleBE(reading[column], at);
    }
  }
  buffer.writeInt16BE(-1, at); // end of data
  return buffer;
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
          Readable.from([copyBinary(readings)]),
          client.query(copyFrom(`COPY ${STAGING_TABLE} (${STAGING_COLUMNS}) FROM STDIN (FORMAT binary)`)),
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
