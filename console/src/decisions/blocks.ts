import { api, readAll } from '../api/client.ts';
import type { BuildingBlock } from '../api/models.ts';

/** The organization's building blocks, by name. */
export async function blocksOf(accountId: string): Promise<BuildingBlock[]> {
  const blocks = await readAll<BuildingBlock>((page) =>
    api.GET('/api/v1/building_blocks', { params: { query: { account_id: accountId, page, limit: 100 } } }),
  );
  return blocks.sort((a, b) => a.name.localeCompare(b.name));
}

/** The first top-level block (a site), which a decision most often concerns. */
export function firstRoot(blocks: BuildingBlock[]): number | undefined {
  const ids = new Set(blocks.map((b) => b.id));
  return blocks.find((b) => b.parent_id === null || !ids.has(b.parent_id))?.id;
}
