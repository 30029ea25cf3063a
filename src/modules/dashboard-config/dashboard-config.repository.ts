import { METER_FIELDS, TARIFF_FIELDS } from '../../db/energy-sources.ts';
import { SqlParams } from '../../db/sql-params.ts';
import { columnValues } from '../../db/sql-writes.ts';
import type { Executor } from '../../db/types.ts';
import type { ConfigValues } from './dashboard-config.schemas.ts';

interface DashboardConfig {
  building_block_id: number;
  grid_meter_id: number | null;
  solar_meter_id: number | null;
  genset_meter_id: number | null;
  inverter_meter_id: number | null;
  load_meter_id: number | null;
  water_supply_meter_id: number | null;
  submeter_ids: number[] | null;
  grid_tariff_id: number | null;
  solar_tariff_id: number | null;
  genset_tariff_id: number | null;
  inverter_tariff_id: number | null;
  load_tariff_id: number | null;
  water_supply_tariff_id: number | null;
  created_at: Date;
  updated_at: Date;
}

const WRITABLE_COLUMNS = [...METER_FIELDS, 'submeter_ids', ...TARIFF_FIELDS];
const COLUMNS = ['building_block_id', ...WRITABLE_COLUMNS, 'created_at', 'updated_at'].join(', ');

export const dashboardConfigRepository = {
  async find(db: Executor, accountId: string, blockId: number) {
    const [row] = await db.query<DashboardConfig>(
      `SELECT ${COLUMNS} FROM energy_dashboard_configs WHERE building_block_id = $1 AND account_id = $2`,
      [blockId, accountId],
    );
    return row;
  },

  /** Creates the block's config or changes the fields given; fields not given keep their value (null when new). */
  async upsert(db: Executor, accountId: string, blockId: number, values: ConfigValues) {
    const params = new SqlParams();
    const set = columnValues(values, WRITABLE_COLUMNS, params);
    const columns = ['building_block_id', 'account_id', ...set.map((s) => s.column)];
    const placeholders = [params.add(blockId), params.add(accountId), ...set.map((s) => s.placeholder)];
    const updates = [...set.map((s) => `${s.column} = EXCLUDED.${s.column}`), 'updated_at = now()'];
    const [row] = await db.query<DashboardConfig>(
      `INSERT INTO energy_dashboard_configs (${columns.join(', ')}) VALUES (${placeholders.join(', ')})
       ON CONFLICT (building_block_id) DO UPDATE SET ${updates.join(', ')}
       RETURNING ${COLUMNS}`,
      params.values,
    );
    return row!;
  },

  /** Whether a config was deleted. */
  async delete(db: Executor, accountId: string, blockId: number) {
    const deleted = await db.query(
      'DELETE FROM energy_dashboard_configs WHERE building_block_id = $1 AND account_id = $2 RETURNING building_block_id',
      [blockId, accountId],
    );
    return deleted.length > 0;
  },
};
