import type { Executor } from '../../db/types.ts';
import type { RecoverySource } from './tenant-recovery.schemas.ts';

interface TenantBlockRow {
  id: number;
  name: string;
}

interface ReadingsSummaryRow {
  first_ts: Date | null;
  last_ts: Date | null;
  count: number;
  /** The imported kWh (a water meter's kL) in billionths, exact as the rollups add them up. */
  import_uwh: string | null;
}

export const tenantRecoveryRepository = {
  /**
   * The block's descendants at any depth (of the organization) whose dashboard config names a meter
   * of the source (grid, or water supply): the tenants a landlord's supply is recovered from. By id.
   */
  tenantBlocks(db: Executor, accountId: string, blockId: number, source: RecoverySource) {
    return db.query<TenantBlockRow>(
      `WITH RECURSIVE tree AS (
         SELECT id, name FROM building_blocks WHERE parent_id = $1 AND account_id = $2
         UNION
         SELECT b.id, b.name FROM building_blocks b JOIN tree t ON b.parent_id = t.id WHERE b.account_id = $2
       )
       SELECT t.id, t.name FROM tree t
       JOIN energy_dashboard_configs c ON c.building_block_id = t.id AND c.account_id = $2
       WHERE CASE WHEN $3 = 'water' THEN c.water_supply_meter_id ELSE c.grid_meter_id END IS NOT NULL
       ORDER BY t.id`,
      [blockId, accountId, source],
    );
  },

  /** The meter's readings in [start, end) (the meter of the organization): first and last interval, count, imported kWh (or kL). */
  async readingsSummary(db: Executor, accountId: string, meterId: number, start: Date, end: Date) {
    const rows = await db.query<ReadingsSummaryRow>(
      `SELECT min(r.ts) AS first_ts, max(r.ts) AS last_ts, count(*)::int AS count,
              sum(round(r.import_kwh * 1e9)::int8)::text AS import_uwh
       FROM readings r JOIN meters m ON m.id = r.meter_id AND m.account_id = $2
       WHERE r.meter_id = $1 AND r.ts >= $3 AND r.ts < $4`,
      [meterId, accountId, start, end],
    );
    return rows[0]!;
  },
};
