import { api, readAll } from '../api/client.ts';
import type { BuildingBlock, Meter } from '../api/models.ts';

/** Every building block of the organization, by name. */
export async function allBlocks(accountId: string): Promise<BuildingBlock[]> {
  const blocks = await readAll<BuildingBlock>((page) =>
    api.GET('/api/v1/building_blocks', { params: { query: { account_id: accountId, page, limit: 100 } } }),
  );
  return blocks.sort((a, b) => a.name.localeCompare(b.name));
}

/** Every meter of the organization, by serial. */
export async function allMeters(accountId: string): Promise<Meter[]> {
  const meters = await readAll<Meter>((page) =>
    api.GET('/api/v1/meters', { params: { query: { account_id: accountId, page, limit: 100 } } }),
  );
  return meters.sort((a, b) => a.meter_sn.localeCompare(b.meter_sn));
}
