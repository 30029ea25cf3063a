import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/db/types.ts';
import type { Client } from './http.ts';

/** A complete, valid building block create body. */
export function blockBody(accountId: string, overrides: Record<string, unknown> = {}) {
  return {
    account_id: accountId,
    name: 'Main Building',
    building_type: 'COMMERCIAL',
    address: '1 Main Road',
    city: 'Cape Town',
    state: 'Western Cape',
    postal_code: 8001,
    country: 'South Africa',
    ...overrides,
  };
}

export async function createBlock(client: Client, accountId: string, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/v1/building_blocks', blockBody(accountId, overrides));
  if (res.status !== 201) throw new Error(`building block create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A valid meter create body with a unique serial number. */
export function meterBody(accountId: string, blockId: number, overrides: Record<string, unknown> = {}) {
  return {
    account_id: accountId,
    building_block_id: blockId,
    meter_sn: `SN-${randomUUID().slice(0, 8)}`,
    meter_type: 'ELECTRICITY',
    ...overrides,
  };
}

export async function createMeter(
  client: Client,
  accountId: string,
  blockId: number,
  overrides: Record<string, unknown> = {},
) {
  const res = await client.post('/api/v1/meters', meterBody(accountId, blockId, overrides));
  if (res.status !== 201) throw new Error(`meter create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** A tariff row of the organization, written directly (the tariffs API is another module's). */
export async function insertTariff(db: Database, accountId: string, name = 'Test tariff'): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO tariffs (account_id, name, effective_from, effective_to) VALUES ($1, $2, '2025-01-01', '2025-12-31') RETURNING id`,
    [accountId, name],
  );
  return row!.id;
}

/** `count` half-hourly readings of the meter, from 2025-01-01T00:00Z. */
export async function insertReadings(db: Database, meterId: number, count: number): Promise<void> {
  await db.query(
    `INSERT INTO readings (meter_id, ts, import_kwh, power_kw, kva)
     SELECT $1, timestamptz '2025-01-01T00:00:00Z' + n * interval '30 minutes', 1, 2, 2 FROM generate_series(0, $2 - 1) AS n`,
    [meterId, count],
  );
}

export async function countReadings(db: Database, meterId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM readings WHERE meter_id = $1', [
    meterId,
  ]);
  return row!.count;
}
