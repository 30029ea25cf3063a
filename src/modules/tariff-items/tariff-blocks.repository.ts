import type { Executor } from '../../db/types.ts';
import type { BlockChanges } from './tariff-blocks.schemas.ts';

interface TariffBlock {
  id: number;
  tariff_item_id: number;
  block_index: number;
  upper_limit: number | null;
  unit_price_cents: number;
}

export interface BlockInput {
  block_index: number;
  upper_limit?: number | null | undefined;
  unit_price_cents?: number | undefined;
}

const BLOCK_COLUMNS = 'id, tariff_item_id, block_index, upper_limit, unit_price_cents';

/** Blocks have no account_id of their own: theirs is their item's tariff's. */
const ITEM_OF_ACCOUNT = (item: string, account: string) =>
  `EXISTS (SELECT 1 FROM tariff_items i JOIN tariffs t ON t.id = i.tariff_id WHERE i.id = ${item} AND t.account_id = ${account})`;

export const tariffBlocksRepository = {
  ofItem(db: Executor, accountId: string, itemId: number) {
    return db.query<TariffBlock>(
      `SELECT ${BLOCK_COLUMNS} FROM tariff_blocks WHERE tariff_item_id = $1 AND ${ITEM_OF_ACCOUNT('$1', '$2')}
       ORDER BY block_index`,
      [itemId, accountId],
    );
  },

  async insertAll(db: Executor, accountId: string, itemId: number, blocks: readonly BlockInput[]) {
    if (blocks.length === 0) return;
    await db.query(
      `INSERT INTO tariff_blocks (tariff_item_id, block_index, upper_limit, unit_price_cents)
       SELECT $1, b.block_index, b.upper_limit, coalesce(b.unit_price_cents, 0)
       FROM unnest($2::int[], $3::numeric[], $4::numeric[]) AS b (block_index, upper_limit, unit_price_cents)
       WHERE ${ITEM_OF_ACCOUNT('$1', '$5')}`,
      [
        itemId,
        blocks.map((b) => b.block_index),
        blocks.map((b) => b.upper_limit ?? null),
        blocks.map((b) => b.unit_price_cents ?? null),
        accountId,
      ],
    );
  },

  async deleteAll(db: Executor, accountId: string, itemId: number) {
    await db.query(`DELETE FROM tariff_blocks WHERE tariff_item_id = $1 AND ${ITEM_OF_ACCOUNT('$1', '$2')}`, [
      itemId,
      accountId,
    ]);
  },

  async update(db: Executor, accountId: string, itemId: number, blockId: number, changes: BlockChanges) {
    const [row] = await db.query<TariffBlock>(
      `UPDATE tariff_blocks SET block_index = coalesce($3, block_index),
         upper_limit = CASE WHEN $4::boolean THEN $5::numeric ELSE upper_limit END,
         unit_price_cents = coalesce($6::numeric, unit_price_cents)
       WHERE id = $1 AND tariff_item_id = $2 AND ${ITEM_OF_ACCOUNT('$2', '$7')} RETURNING ${BLOCK_COLUMNS}`,
      [
        blockId,
        itemId,
        changes.block_index ?? null,
        changes.upper_limit !== undefined,
        changes.upper_limit ?? null,
        changes.unit_price_cents ?? null,
        accountId,
      ],
    );
    return row;
  },

  /** Whether the block was deleted. */
  async delete(db: Executor, accountId: string, itemId: number, blockId: number) {
    const deleted = await db.query(
      `DELETE FROM tariff_blocks WHERE id = $1 AND tariff_item_id = $2 AND ${ITEM_OF_ACCOUNT('$2', '$3')} RETURNING id`,
      [blockId, itemId, accountId],
    );
    return deleted.length > 0;
  },
};
