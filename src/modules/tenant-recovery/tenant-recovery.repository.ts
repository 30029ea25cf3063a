import type { Executor } from '../../db/types.ts';

interface TenantBlockRow {
  id: number;
  name: string;
}

export const tenantRecoveryRepository = {
  /**
   * The block's descendants at any depth (of the organization) whose dashboard config names a grid
   * meter: the tenants a landlord's supply is recovered from. By id.
   */
  tenantBlocks(db: Executor, accountId: string, blockId: number) {
    return db.query<TenantBlockRow>(
      `WITH RECURSIVE tree AS (
         SELECT id, name FROM building_blocks WHERE parent_id = $1 AND account_id = $2
         UNION
         SELECT b.id, b.name FROM building_blocks b JOIN tree t ON b.parent_id = t.id WHERE b.account_id = $2
       )
       SELECT t.id, t.name FROM tree t
       JOIN energy_dashboard_configs c ON c.building_block_id = t.id AND c.account_id = $2
       WHERE c.grid_meter_id IS NOT NULL
       ORDER BY t.id`,
      [blockId, accountId],
    );
  },
};
