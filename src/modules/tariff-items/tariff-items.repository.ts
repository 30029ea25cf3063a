import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import type { ItemValues, TariffItem } from '../tariffs/tariffs.model.ts';
import { type BlockInput, tariffBlocksRepository } from './tariff-blocks.repository.ts';
import { ITEM_SORT } from './tariff-items.schemas.ts';

/** A new item: the fields of extensions §11.5 may be left out (null). */
export interface ItemInput
  extends Pick<ItemValues, 'item_type_code' | 'price' | 'season'>,
    Partial<Pick<ItemValues, 'unit' | 'demand_periods' | 'demand_basis' | 'free_ratio' | 'volume_share' | 'max_kl'>> {
  blocks?: BlockInput[] | undefined;
}

const ITEM_SELECT = `i.id, i.tariff_id, i.item_type_code, i.price, i.season, i.unit, i.demand_periods, i.demand_basis, i.free_ratio,
  i.volume_share, i.max_kl,
  coalesce((SELECT json_agg(json_build_object('id', b.id, 'tariff_item_id', b.tariff_item_id, 'block_index', b.block_index,
                                              'upper_limit', b.upper_limit, 'unit_price_cents', b.unit_price_cents)
                            ORDER BY b.block_index)
            FROM tariff_blocks b WHERE b.tariff_item_id = i.id), '[]'::json) AS tariff_blocks`;

/** The parameters of an item's own fields, in the order of ItemValues. */
function itemParams(item: ItemInput) {
  return [
    item.item_type_code,
    item.price,
    item.season,
    item.unit ?? null,
    item.demand_periods ?? null,
    item.demand_basis ?? null,
    item.free_ratio ?? null,
    item.volume_share ?? null,
    item.max_kl ?? null,
  ];
}

/** Items have no account_id of their own: theirs is their tariff's. */
const OF_ACCOUNT = (placeholder: string) =>
  `EXISTS (SELECT 1 FROM tariffs t WHERE t.id = i.tariff_id AND t.account_id = ${placeholder})`;

export const tariffItemsRepository = {
  /**
   * The tariff's seasonal items that no day can be priced with: no day of the distributor's calendar
   * (the tariff's DSO, else its schedule's; none: no seasons) has their season, and their type has
   * other items (the single item of a type prices every day). no_dso: the tariff has no calendar.
   */
  neverApplying(db: Executor, tariffId: number, dsoId: number | null, scheduleId: number | null) {
    return db.query<{ item_type_code: string; season: string; no_dso: boolean }>(
      `WITH calendar AS (
         SELECT coalesce($2::int, (SELECT s.dso_id FROM tou_schedules s WHERE s.id = $3::int)) AS dso_id)
       SELECT i.item_type_code, i.season, c.dso_id IS NULL AS no_dso
       FROM tariff_items i CROSS JOIN calendar c
       WHERE i.tariff_id = $1 AND i.season <> 'ALL_YEAR'
         AND NOT EXISTS (SELECT 1 FROM dso_seasons d WHERE d.dso_id = c.dso_id AND d.label = i.season)
         AND EXISTS (SELECT 1 FROM tariff_items o
                     WHERE o.tariff_id = i.tariff_id AND o.item_type_code = i.item_type_code AND o.id <> i.id)
       ORDER BY i.item_type_code, i.season`,
      [tariffId, dsoId, scheduleId],
    );
  },

  list(db: Executor, accountId: string, tariffId: number, list: ListParams) {
    const params = new SqlParams();
    return listPage<TariffItem>(
      db,
      {
        select: ITEM_SELECT,
        from: 'tariff_items i',
        where: [`i.tariff_id = ${params.add(tariffId)}`, OF_ACCOUNT(params.add(accountId))],
        params,
        search: { columns: ['i.item_type_code', 'i.season'] },
        sortColumns: ITEM_SORT,
        tiebreak: 'i.id',
      },
      list,
    );
  },

  /** Every item of the tariff with its blocks, in creation order (the nesting of tariff reads). */
  ofTariff(db: Executor, accountId: string, tariffId: number) {
    return db.query<TariffItem>(
      `SELECT ${ITEM_SELECT} FROM tariff_items i WHERE i.tariff_id = $1 AND ${OF_ACCOUNT('$2')} ORDER BY i.id`,
      [tariffId, accountId],
    );
  },

  async find(db: Executor, accountId: string, tariffId: number, itemId: number) {
    const [row] = await db.query<TariffItem>(
      `SELECT ${ITEM_SELECT} FROM tariff_items i WHERE i.id = $1 AND i.tariff_id = $2 AND ${OF_ACCOUNT('$3')}`,
      [itemId, tariffId, accountId],
    );
    return row;
  },

  /**
   * Locks the item of that tariff until the transaction ends, so that writes to it and its tiers
   * run one at a time and each checks the tiers the previous one left. Whether it exists.
   */
  async lock(db: Executor, accountId: string, tariffId: number, itemId: number) {
    const rows = await db.query(
      `SELECT i.id FROM tariff_items i WHERE i.id = $1 AND i.tariff_id = $2 AND ${OF_ACCOUNT('$3')} FOR UPDATE`,
      [itemId, tariffId, accountId],
    );
    return rows.length > 0;
  },

  /** The new item with its blocks; undefined when the tariff is not the organization's. */
  async insert(db: Executor, accountId: string, tariffId: number, item: ItemInput) {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO tariff_items (tariff_id, item_type_code, price, season, unit, demand_periods, demand_basis, free_ratio,
         volume_share, max_kl)
       SELECT id, $3, $4, $5, $6, $7::text[], $8, $9, $10, $11 FROM tariffs WHERE id = $1 AND account_id = $2 RETURNING id`,
      [tariffId, accountId, ...itemParams(item)],
    );
    if (!row) return undefined;
    await tariffBlocksRepository.insertAll(db, accountId, row.id, item.blocks ?? []);
    return tariffItemsRepository.find(db, accountId, tariffId, row.id);
  },

  /** Writes all of the item's own fields; the changed item, undefined when there is no such item of the organization. */
  async update(db: Executor, accountId: string, tariffId: number, itemId: number, values: ItemValues) {
    await db.query(
      `UPDATE tariff_items i SET item_type_code = $4, price = $5, season = $6, unit = $7, demand_periods = $8::text[],
         demand_basis = $9, free_ratio = $10, volume_share = $11, max_kl = $12, updated_at = now()
       WHERE i.id = $1 AND i.tariff_id = $2 AND ${OF_ACCOUNT('$3')}`,
      [itemId, tariffId, accountId, ...itemParams(values)],
    );
    return tariffItemsRepository.find(db, accountId, tariffId, itemId);
  },

  /** The ids of the tariff's items that have demand_periods. */
  async withDemandPeriods(db: Executor, tariffId: number) {
    const rows = await db.query<{ id: number }>(
      'SELECT id FROM tariff_items WHERE tariff_id = $1 AND demand_periods IS NOT NULL ORDER BY id',
      [tariffId],
    );
    return rows.map((r) => r.id);
  },

  /** The units of the item types of codes, by code. */
  async typeUnits(db: Executor, codes: string[]) {
    const rows = await db.query<{ code: string; unit: string }>(
      'SELECT code, unit FROM tariff_item_types WHERE code = ANY($1::text[])',
      [codes],
    );
    return new Map(rows.map((r) => [r.code, r.unit]));
  },

  async delete(db: Executor, accountId: string, tariffId: number, itemId: number) {
    await db.query(`DELETE FROM tariff_items i WHERE i.id = $1 AND i.tariff_id = $2 AND ${OF_ACCOUNT('$3')}`, [
      itemId,
      tariffId,
      accountId,
    ]);
  },
};
