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

/**
 * The first block with a dashboard config, sites first (what a comparison needs), else the first
 * site: a decision then opens on a building it can answer for.
 */
export function firstConfigured(blocks: BuildingBlock[]): number | undefined {
  const sitesFirst = [...blocks].sort((a, b) => Number(a.parent_id !== null) - Number(b.parent_id !== null));
  return sitesFirst.find((block) => block.has_dashboard_config)?.id ?? firstRoot(blocks);
}
