import { api, read, readOrNull } from '../api/client.ts';
import type { BillSource, BuildingBlock, DashboardConfig, EnergySource } from '../api/models.ts';

/** The prefix of a source's meter and tariff fields in the dashboard config: the water supply's is `water_supply`. */
export type ConfigPrefix = EnergySource | 'water_supply';
export const configPrefix = (source: BillSource): ConfigPrefix => (source === 'water' ? 'water_supply' : source);

export type ConfigChanges = Partial<Record<`${ConfigPrefix}_meter_id` | `${ConfigPrefix}_tariff_id`, number | null>>;

/** The block's dashboard config, or null when it has none. */
export function loadConfig(blockId: number, accountId: string): Promise<DashboardConfig | null> {
  return readOrNull<DashboardConfig>(
    api.GET('/api/v1/building_blocks/{id}/config', {
      params: { path: { id: blockId }, query: { account_id: accountId } },
    }),
  );
}

/** The block's dashboard config, or null when its record says it has none (not asked: that GET answers 404). */
export function configOf(
  block: Pick<BuildingBlock, 'id' | 'has_dashboard_config'>,
  accountId: string,
): Promise<DashboardConfig | null> {
  return block.has_dashboard_config ? loadConfig(block.id, accountId) : Promise.resolve(null);
}

/** Creates the config or changes the fields given (the others stay). */
export function saveConfig(blockId: number, accountId: string, changes: ConfigChanges): Promise<DashboardConfig> {
  return read<DashboardConfig>(
    api.PUT('/api/v1/building_blocks/{id}/config', {
      params: { path: { id: blockId } },
      body: { account_id: accountId, ...changes },
    }),
  );
}
