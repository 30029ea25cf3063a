import type { Executor } from '../../db/types.ts';
import { TARIFF_RECORD, type TariffRow, WRITABLE_COLUMNS } from './tariffs.repository.ts';

const OWN_COLUMNS: readonly string[] = ['name', 'cloned_from', 'family'];
const COPIED_COLUMNS = WRITABLE_COLUMNS.filter((c) => !OWN_COLUMNS.includes(c)).join(', ');
const COPIED_ITEM_COLUMNS =
  'item_type_code, price, season, unit, demand_periods, demand_basis, free_ratio, volume_share, max_kl';

export const catalogueRepository = {
  /**
   * Copies the tariff, its items and their blocks into accountId, with the source's name and family
   * unless given (family null: none); run it inside a transaction.
   */
  async clone(
    tx: Executor,
    sourceId: number,
    accountId: string,
    own: { name?: string | undefined; family?: string | null | undefined },
  ): Promise<TariffRow> {
    const [copy] = await tx.query<TariffRow>(
      `INSERT INTO tariffs (account_id, name, family, cloned_from, ${COPIED_COLUMNS})
       SELECT $2, coalesce($3, name), CASE WHEN $4 THEN $5 ELSE family END, id, ${COPIED_COLUMNS}
       FROM tariffs WHERE id = $1
       RETURNING ${TARIFF_RECORD}`,
      [sourceId, accountId, own.name ?? null, own.family !== undefined, own.family ?? null],
    );
    await tx.query(
      `INSERT INTO tariff_items (tariff_id, ${COPIED_ITEM_COLUMNS})
       SELECT $2, ${COPIED_ITEM_COLUMNS} FROM tariff_items WHERE tariff_id = $1 ORDER BY id`,
      [sourceId, copy!.id],
    );
    // An item is identified within its tariff by (item_type_code, season): that pairs each copy with its source.
    await tx.query(
      `INSERT INTO tariff_blocks (tariff_item_id, block_index, upper_limit, unit_price_cents)
       SELECT copy.id, b.block_index, b.upper_limit, b.unit_price_cents
       FROM tariff_items source
       JOIN tariff_items copy
         ON copy.tariff_id = $2 AND copy.item_type_code = source.item_type_code AND copy.season = source.season
       JOIN tariff_blocks b ON b.tariff_item_id = source.id
       WHERE source.tariff_id = $1
       ORDER BY copy.id, b.block_index`,
      [sourceId, copy!.id],
    );
    return copy!;
  },
};
