import type { Executor } from '../../db/types.ts';
import { SqlParams } from '../../http/list.ts';
import { arrayLiteral } from './array-literal.ts';
import type { StoredReading } from './readings.ts';

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

/** Where the readings of a write come from, as FROM items aliased s; each adds the values it needs to params. */
export interface ReadingSource {
  /** The columns meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva. */
  readings(params: SqlParams): string;
  /** At least meter_id and ts, of the same readings. */
  keys(params: SqlParams): string;
}

/** The readings themselves, sent as one array parameter per column. */
export function readingsArraySource(readings: readonly StoredReading[]): ReadingSource {
  const meterIds = arrayLiteral(readings.map((r) => r.meter_id));
  const times = arrayLiteral(readings.map((r) => r.ts.toISOString()));
  return {
    readings(params) {
      const column = (key: Exclude<keyof StoredReading, 'ts' | 'meter_id'>) =>
        params.add(arrayLiteral(readings.map((r) => r[key])));
      return `unnest(${params.add(meterIds)}::int[], ${params.add(times)}::timestamptz[],
        ${column('import_kwh')}::float8[], ${column('export_kwh')}::float8[], ${column('kvarh')}::float8[],
        ${column('power_kw')}::float8[], ${column('kva')}::float8[])
        AS s(meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva)`;
    },
    keys: (params) => `unnest(${params.add(meterIds)}::int[], ${params.add(times)}::timestamptz[]) AS s(meter_id, ts)`,
  };
}

// Any constant: it only keeps these locks apart from other advisory locks of the service.
const METER_WRITE_LOCK = 727_006;

export const readingsRepository = {
  /**
   * Meters by serial number, whatever their organization: the caller tells a foreign meter (403)
   * from an unknown one (404).
   */
  async findMetersBySerial(db: Executor, serials: readonly string[]): Promise<MeterRow[]> {
    return db.query<MeterRow>(
      'SELECT id, account_id, meter_sn, meter_type, interval_minutes FROM meters WHERE meter_sn = ANY($1::text[])',
      [serials],
    );
  },

  async accountExists(db: Executor, accountId: string): Promise<boolean> {
    return (await db.query('SELECT 1 FROM accounts WHERE id = $1', [accountId])).length > 0;
  },

  /**
   * Serialises writers of the same meters until the transaction ends, so that two concurrent
   * batches touching one hour cannot each recompute its rollup without the other's readings. The
   * key-share lock stands for a foreign key: the meters cannot be deleted until the transaction
   * ends, and a meter deleted meanwhile is absent from the upsert's join.
   */
  async lockMeters(tx: Executor, meterIds: readonly number[]): Promise<void> {
    await tx.query(
      `SELECT pg_advisory_xact_lock($1, id)
       FROM (SELECT id FROM meters WHERE id = ANY($2::int[]) ORDER BY id FOR KEY SHARE) locked`,
      [METER_WRITE_LOCK, arrayLiteral(meterIds)],
    );
  },

  /** Inserts readings, replacing those with the same (meter, ts); only meters of accountId. */
  async upsert(tx: Executor, accountId: string, source: ReadingSource): Promise<WriteCounts> {
    const params = new SqlParams();
    const from = source.readings(params);
    const [counts] = await tx.query<WriteCounts>(
      `WITH written AS (
         INSERT INTO readings (meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva)
         SELECT s.meter_id, s.ts, s.import_kwh, s.export_kwh, s.kvarh, s.power_kw, s.kva
         FROM ${from} JOIN meters m ON m.id = s.meter_id AND m.account_id = ${params.add(accountId)}
         ON CONFLICT (meter_id, ts) DO UPDATE SET import_kwh = excluded.import_kwh, export_kwh = excluded.export_kwh,
           kvarh = excluded.kvarh, power_kw = excluded.power_kw, kva = excluded.kva
         -- xmax is 0 only on a row version this statement inserted.
         RETURNING (xmax = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
       FROM written`,
      params.values,
    );
    return counts!;
  },
};
