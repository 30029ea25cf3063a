import { ENERGY_SOURCES, type EnergySource, meterField } from '../../db/energy-sources.ts';
import type { Executor } from '../../db/types.ts';

/** A source of the config and its meter (all null when the source names none). */
interface SourceMeterRow {
  source: EnergySource;
  meter_id: number | null;
  meter_type: string | null;
}

// The config's sources in the order the answers list them.
const SOURCE_COLUMNS = ENERGY_SOURCES.map((source, position) => `(${position}, '${source}', c.${meterField(source)})`);

export const buildingSourcesRepository = {
  /** The block's organization, whatever it is: the caller tells a foreign block (403) from an unknown one (404). */
  async findBlock(db: Executor, blockId: number) {
    const [row] = await db.query<{ account_id: string }>('SELECT account_id FROM building_blocks WHERE id = $1', [
      blockId,
    ]);
    return row;
  },

  /** Every source of the block's dashboard config with its meter; none when the block has no config. */
  sourceMeters(db: Executor, accountId: string, blockId: number) {
    return db.query<SourceMeterRow>(
      `SELECT s.source, m.id AS meter_id, m.meter_type
       FROM energy_dashboard_configs c
       CROSS JOIN LATERAL (VALUES ${SOURCE_COLUMNS.join(', ')}) AS s(position, source, meter_id)
       LEFT JOIN meters m ON m.id = s.meter_id AND m.account_id = c.account_id
       WHERE c.building_block_id = $1 AND c.account_id = $2
       ORDER BY s.position`,
      [blockId, accountId],
    );
  },
};
