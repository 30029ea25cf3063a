import { METER_FIELDS } from '../../db/energy-sources.ts';
import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import { insertRow, updateRow } from '../../db/sql-writes.ts';
import type { Executor } from '../../db/types.ts';
import { METER_SORT } from './meters.schemas.ts';

export interface Meter {
  id: number;
  account_id: string;
  building_block_id: number;
  meter_sn: string;
  meter_type: string;
  name: string | null;
  tariff_id: number | null;
  interval_minutes: number;
  is_active: boolean;
  notified_max_demand_kva: number | null;
  installed_on: string | null;
  created_at: Date;
  updated_at: Date;
}

const WRITABLE_COLUMNS = [
  'building_block_id',
  'meter_sn',
  'meter_type',
  'name',
  'tariff_id',
  'interval_minutes',
  'is_active',
  'notified_max_demand_kva',
  'installed_on',
] as const;
const COLUMNS = ['id', 'account_id', ...WRITABLE_COLUMNS, 'created_at', 'updated_at'].join(', ');

const TABLE = { table: 'meters', writable: WRITABLE_COLUMNS, returning: COLUMNS };

type MeterValues = Partial<Record<(typeof WRITABLE_COLUMNS)[number], unknown>>;

interface MeterFilters {
  building_block_id?: number | undefined;
  meter_type?: string | undefined;
}

export const metersRepository = {
  /** By id alone, so the caller can tell a foreign meter (403) from a missing one (404). */
  async find(db: Executor, id: number) {
    const [row] = await db.query<Meter>(`SELECT ${COLUMNS} FROM meters WHERE id = $1`, [id]);
    return row;
  },

  list(db: Executor, accountId: string, filters: MeterFilters, list: ListParams) {
    const params = new SqlParams();
    const where = [`m.account_id = ${params.add(accountId)}`];
    if (filters.building_block_id !== undefined)
      where.push(`m.building_block_id = ${params.add(filters.building_block_id)}`);
    if (filters.meter_type !== undefined) where.push(`m.meter_type = ${params.add(filters.meter_type)}`);
    return listPage<Meter>(
      db,
      {
        select: COLUMNS,
        from: 'meters m',
        where,
        params,
        search: { columns: ['m.name', 'm.meter_sn'] },
        sortColumns: METER_SORT,
        tiebreak: 'm.id',
      },
      list,
    );
  },

  /** Which of ids are meters of the organization, locked (FOR SHARE) until the transaction ends. */
  async lockExisting(db: Executor, accountId: string, ids: number[]) {
    const rows = await db.query<{ id: number }>(
      'SELECT id FROM meters WHERE account_id = $1 AND id = ANY($2::int[]) FOR SHARE',
      [accountId, ids],
    );
    return rows.map((r) => r.id);
  },

  insert: (db: Executor, accountId: string, values: MeterValues) => insertRow<Meter>(db, TABLE, accountId, values),

  update: (db: Executor, accountId: string, id: number, values: MeterValues) =>
    updateRow<Meter>(db, TABLE, accountId, id, values),

  /**
   * Locks the meter against concurrent readings (writers take FOR KEY SHARE on it) until the
   * transaction ends. Whether it still exists (a racing delete may have removed it).
   */
  /** Locks the organization's meter until the transaction ends; its serial, or undefined when there is none. */
  async lock(db: Executor, accountId: string, id: number) {
    const [row] = await db.query<{ meter_sn: string }>(
      'SELECT meter_sn FROM meters WHERE id = $1 AND account_id = $2 FOR UPDATE',
      [id, accountId],
    );
    return row;
  },

  async hasReadings(db: Executor, id: number) {
    const [row] = await db.query<{ found: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM readings WHERE meter_id = $1) AS found',
      [id],
    );
    return row!.found;
  },

  /**
   * Deletes the meter; a trigger removes its readings and rollups. The organization's dashboard
   * configs that name it forget it first (their foreign keys would refuse the delete).
   */
  async delete(db: Executor, accountId: string, id: number) {
    await db.query(
      `UPDATE energy_dashboard_configs SET
         ${METER_FIELDS.map((f) => `${f} = NULLIF(${f}, $2)`).join(', ')},
         submeter_ids = array_remove(submeter_ids, $2),
         updated_at = now()
       WHERE account_id = $1 AND ($2 IN (${METER_FIELDS.join(', ')}) OR $2 = ANY (submeter_ids))`,
      [accountId, id],
    );
    await db.query('DELETE FROM meters WHERE id = $1 AND account_id = $2', [id, accountId]);
  },
};
