import { BinaryCopyRows } from '../../db/copy-binary.ts';
import { unlessDuplicate } from '../../db/savepoint.ts';
import type { Executor, Transaction } from '../../db/types.ts';
import { arrayLiteral } from './array-literal.ts';
import type { ReadingBatch } from './readings.ts';
import { micro } from './rollup-sql.ts';

export interface MeterRow {
  id: number;
  account_id: string;
  meter_sn: string;
  meter_type: string;
  interval_minutes: number;
}

export interface WriteCounts {
  inserted: number;
  updated: number;
}

const READING_COLUMNS = ['meter_id', 'ts', 'import_kwh', 'export_kwh', 'kvarh', 'power_kw', 'kva'] as const;

/** Readings in the binary form of COPY, in READING_COLUMNS order. */
export function binaryReadings(batch: ReadingBatch): Buffer<ArrayBuffer> {
  const rows = new BinaryCopyRows(batch.length, [
    'int4',
    'timestamptz',
    'float8',
    'float8',
    'float8',
    'float8',
    'float8',
  ]);
  for (let i = 0; i < batch.length; i++) {
    rows.row().int4(batch.meterId[i]!).timestamptz(batch.ts[i]!);
    rows.float8(batch.importKwh[i]!).float8(batch.exportKwh[i]!).float8(batch.kvarh[i]!);
    rows.float8(batch.powerKw[i]!).float8(batch.kva[i]!);
  }
  return rows.finish();
}

/** A session's own table (emptied at each commit) holding the readings of an upsert. */
const STAGING_TABLE = 'readings_staging';
/** The staged readings, as a FROM item. */
export const STAGED_READINGS = `${STAGING_TABLE} s`;

// Any constant: it only keeps these locks apart from other advisory locks of the service.
export const METER_WRITE_LOCK = 727_006;

export const readingsRepository = {
  /**
   * Meters by serial number, whatever their organization: the caller tells a foreign meter (403)
   * from an unknown one (404).
   */
  async findMetersBySerial(db: Executor, serials: readonly string[]): Promise<MeterRow[]> {
    return db.query<MeterRow>(
      'SELECT id, account_id, meter_sn, meter_type, interval_minutes FROM meters WHERE meter_sn = ANY($1::text[])',
      [serials],
      // One plan for any list: a lookup in the unique index of meter_sn.
      { reusePlan: true },
    );
  },

  /** The organization's meter's earliest reading: its time and its import (kWh, or kL for water). */
  async firstReading(db: Executor, accountId: string, meterId: number) {
    const [row] = await db.query<{ ts: Date; import_kwh: number }>(
      `SELECT r.ts, r.import_kwh FROM readings r JOIN meters m ON m.id = r.meter_id
        WHERE m.account_id = $1 AND r.meter_id = $2 ORDER BY r.ts LIMIT 1`,
      [accountId, meterId],
    );
    return row;
  },

  /** The meter with this id, whatever its organization (the caller tells a foreign meter from an unknown one). */
  async findMeterById(db: Executor, meterId: number): Promise<MeterRow | undefined> {
    const [row] = await db.query<MeterRow>(
      'SELECT id, account_id, meter_sn, meter_type, interval_minutes FROM meters WHERE id = $1',
      [meterId],
    );
    return row;
  },

  /**
   * The meter's readings of [from, to) (whole UTC months), one row for each month with readings
   * (none when the meter is not the organization's): its start as month_ms, and its readings as
   * one text, oldest first: per reading its time (ms since the epoch), then its import, export and
   * reactive energy in micro-units as the rollups add them (rollup-sql.ts), all apart by commas.
   */
  energyMicrosByMonth(db: Executor, accountId: string, meterId: number, from: Date, to: Date) {
    return db.query<{ month_ms: number; values: string }>(
      `SELECT (date_part('epoch', date_trunc('month', ts, 'UTC')) * 1000)::int8 AS month_ms,
              string_agg(concat_ws(',', (extract(epoch FROM ts) * 1000)::int8, ${micro('import_kwh')},
                ${micro('export_kwh')}, ${micro('kvarh')}), ',' ORDER BY ts) AS values
       FROM readings
       WHERE meter_id = $1 AND ts >= $2 AND ts < $3 AND EXISTS (SELECT 1 FROM meters WHERE id = $1 AND account_id = $4)
       GROUP BY 1`,
      [meterId, from, to, accountId],
      { reusePlan: true },
    );
  },

  async accountExists(db: Executor, accountId: string): Promise<boolean> {
    return (await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId])).length > 0;
  },

  /**
   * Locks those of the meters that belong to accountId until the transaction ends and returns
   * their ids. Writers of the same meters are serialised, so that two concurrent batches touching
   * one hour cannot each compute its rollup without the other's readings. The key-share lock
   * stands for a foreign key: the meters cannot be deleted until the transaction ends, and a meter
   * deleted meanwhile is not returned (its readings are not written).
   */
  async lockOwnMeters(tx: Executor, accountId: string, meterIds: readonly number[]): Promise<Set<number>> {
    const rows = await tx.query<{ id: number }>(
      `SELECT locked.id, pg_advisory_xact_lock($1, locked.id) AS lock
       FROM (SELECT id FROM meters WHERE id = ANY($2::int[]) AND account_id = $3 ORDER BY id FOR KEY SHARE) locked`,
      [METER_WRITE_LOCK, arrayLiteral(meterIds), accountId],
    );
    return new Set(rows.map((row) => row.id));
  },

  /**
   * Inserts readings (binaryReadings) of locked meters by a bulk load, provided none of them is stored yet: true
   * when they were all inserted, false (nothing written) when one (meter, ts) already exists.
   */
  async insertIfAllNew(tx: Transaction, copy: Buffer<ArrayBuffer>): Promise<boolean> {
    return unlessDuplicate(tx, () => tx.copyBinary('readings', READING_COLUMNS, copy));
  },

  /** Loads readings (binaryReadings, distinct (meter, ts)) into STAGED_READINGS, which holds them until the commit. */
  async stage(tx: Transaction, copy: Buffer<ArrayBuffer>): Promise<void> {
    await tx.query(`CREATE TEMP TABLE IF NOT EXISTS ${STAGING_TABLE} (LIKE readings) ON COMMIT DELETE ROWS`);
    // Empty unless an earlier write of this transaction staged readings.
    await tx.query(`DELETE FROM ${STAGING_TABLE}`);
    await tx.copyBinary(STAGING_TABLE, READING_COLUMNS, copy);
  },

  /** Inserts the staged readings, replacing those with the same (meter, ts); only meters of accountId. */
  async upsertStaged(tx: Executor, accountId: string): Promise<WriteCounts> {
    const [counts] = await tx.query<WriteCounts>(
      `WITH written AS (
         INSERT INTO readings (${READING_COLUMNS.join(', ')})
         SELECT s.meter_id, s.ts, s.import_kwh, s.export_kwh, s.kvarh, s.power_kw, s.kva
         FROM ${STAGED_READINGS} JOIN meters m ON m.id = s.meter_id AND m.account_id = $1
         ON CONFLICT (meter_id, ts) DO UPDATE SET import_kwh = excluded.import_kwh, export_kwh = excluded.export_kwh,
           kvarh = excluded.kvarh, power_kw = excluded.power_kw, kva = excluded.kva
         -- xmax is 0 only on a row version this statement inserted.
         RETURNING (xmax = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
       FROM written`,
      [accountId],
    );
    return counts!;
  },
};
