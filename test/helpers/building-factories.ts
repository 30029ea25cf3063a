import { randomUUID } from 'node:crypto';
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
