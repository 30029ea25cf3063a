import type { Executor } from '../../src/db/types.ts';
import type { Client } from './http.ts';

/** A valid create body: a FLAT electricity tariff for 2025, with overrides. */
export function tariffBody(accountId: string, overrides: Record<string, unknown> = {}) {
  return {
    account_id: accountId,
    name: 'Test tariff',
    effective_from: '2025-01-01',
    effective_to: '2025-12-31',
    ...overrides,
  };
}

/** Creates a tariff through the API and returns its record (with tariff_items and dso). */
export async function createTariff(client: Client, accountId: string, overrides: Record<string, unknown> = {}) {
  const res = await client.post('/api/v1/tariffs', tariffBody(accountId, overrides));
  if (res.status !== 201) throw new Error(`tariff create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Adds items (one object or an array) to a tariff through the API and returns the created items. */
export async function createItems(client: Client, tariffId: number, items: unknown) {
  const res = await client.post(`/api/v1/tariffs/${tariffId}/items`, items);
  if (res.status !== 201) throw new Error(`item create failed: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function insertBuildingBlock(db: Executor, accountId: string): Promise<number> {
  const [block] = await db.query<{ id: number }>(
    `INSERT INTO building_blocks (account_id, name, building_type, address, city, state, postal_code, country)
     VALUES ($1, 'Test site', 'COMMERCIAL', '1 Main Road', 'Johannesburg', 'Gauteng', 2000, 'ZA') RETURNING id`,
    [accountId],
  );
  return block!.id;
}

/** A meter priced with the tariff, written directly (the meters API is not what these tests exercise). */
export async function insertMeterWithTariff(db: Executor, accountId: string, tariffId: number): Promise<number> {
  const blockId = await insertBuildingBlock(db, accountId);
  const [meter] = await db.query<{ id: number }>(
    `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, tariff_id)
     VALUES ($1, $2, $3, 'ELECTRICITY', $4) RETURNING id`,
    [accountId, blockId, `SN-${crypto.randomUUID()}`, tariffId],
  );
  return meter!.id;
}

/** An energy dashboard config whose load tariff is the tariff, written directly. */
export async function insertConfigWithTariff(db: Executor, accountId: string, tariffId: number): Promise<void> {
  const blockId = await insertBuildingBlock(db, accountId);
  await db.query(
    'INSERT INTO energy_dashboard_configs (building_block_id, account_id, load_tariff_id) VALUES ($1, $2, $3)',
    [blockId, accountId, tariffId],
  );
}

/** A transition from predecessor to successor, written directly. */
export async function insertTransition(db: Executor, accountId: string, predecessorId: number, successorId: number) {
  await db.query(
    `INSERT INTO tariff_transitions (account_id, predecessor_id, successor_id, effective_from)
     VALUES ($1, $2, $3, now() + interval '30 days')`,
    [accountId, predecessorId, successorId],
  );
}
