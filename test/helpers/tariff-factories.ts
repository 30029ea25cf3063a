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

/** How an item reads back without the fields of extensions §11.5. */
export const UNSET_ITEM_FIELDS = {
  unit: null,
  demand_periods: null,
  demand_basis: null,
  free_ratio: null,
  volume_share: null,
  max_kl: null,
} as const;
