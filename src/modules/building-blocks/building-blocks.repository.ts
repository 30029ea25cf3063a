import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import { insertRow, updateRow } from '../../db/sql-writes.ts';
import type { Executor } from '../../db/types.ts';
import { BUILDING_BLOCK_SORT, type BuildingType } from './building-blocks.schemas.ts';

interface BuildingBlock {
  id: number;
  account_id: string;
  name: string;
  building_type: string;
  description: string | null;
  address: string;
  city: string;
  state: string;
  postal_code: number;
  country: string;
  parent_id: number | null;
  area: number | null;
  is_active: boolean;
  location: string | null;
  created_at: Date;
  updated_at: Date;
  has_dashboard_config: boolean;
}

const WRITABLE_COLUMNS = [
  'name',
  'building_type',
  'description',
  'address',
  'city',
  'state',
  'postal_code',
  'country',
  'parent_id',
  'area',
  'is_active',
  'location',
] as const;
const COLUMNS = ['id', 'account_id', ...WRITABLE_COLUMNS, 'created_at', 'updated_at'].join(', ');
/** The record of the block named `block` in the query: its columns and whether it has a dashboard config. */
const recordOf = (block: string) =>
  `${COLUMNS}, EXISTS (SELECT 1 FROM energy_dashboard_configs c WHERE c.building_block_id = ${block}.id) AS has_dashboard_config`;
const RECORD = recordOf('building_blocks');

const TABLE = { table: 'building_blocks', writable: WRITABLE_COLUMNS, returning: RECORD };

type BuildingBlockValues = Partial<Record<(typeof WRITABLE_COLUMNS)[number], unknown>>;

interface BuildingBlockFilters {
  parent_id?: number | undefined;
  building_type?: BuildingType | undefined;
}

export const buildingBlocksRepository = {
  /** By id alone, so the caller can tell a foreign block (403) from a missing one (404). */
  async find(db: Executor, id: number) {
    const [row] = await db.query<BuildingBlock>(`SELECT ${RECORD} FROM building_blocks WHERE id = $1`, [id]);
    return row;
  },

  list(db: Executor, accountId: string, filters: BuildingBlockFilters, list: ListParams) {
    const params = new SqlParams();
    const where = [`b.account_id = ${params.add(accountId)}`];
    if (filters.parent_id !== undefined) where.push(`b.parent_id = ${params.add(filters.parent_id)}`);
    if (filters.building_type !== undefined) where.push(`b.building_type = ${params.add(filters.building_type)}`);
    return listPage<BuildingBlock>(
      db,
      {
        select: recordOf('b'),
        from: 'building_blocks b',
        where,
        params,
        search: { columns: ['b.name', 'b.description'] },
        sortColumns: BUILDING_BLOCK_SORT,
        tiebreak: 'b.id',
      },
      list,
    );
  },

  /** Which of ids are blocks of the organization, locked (FOR SHARE) until the transaction ends. */
  async lockExisting(db: Executor, accountId: string, ids: number[]) {
    const rows = await db.query<{ id: number }>(
      'SELECT id FROM building_blocks WHERE account_id = $1 AND id = ANY($2::int[]) FOR SHARE',
      [accountId, ids],
    );
    return rows.map((r) => r.id);
  },

  /** Inserts only the columns given, so a missing required column fails in the database (23502). */
  insert: (db: Executor, accountId: string, values: BuildingBlockValues) =>
    insertRow<BuildingBlock>(db, TABLE, accountId, values),

  update: (db: Executor, accountId: string, id: number, values: BuildingBlockValues) =>
    updateRow<BuildingBlock>(db, TABLE, accountId, id, values),

  /** Whether the block was deleted: false when a racing delete took it first. */
  async delete(db: Executor, accountId: string, id: number) {
    const deleted = await db.query('DELETE FROM building_blocks WHERE id = $1 AND account_id = $2 RETURNING id', [
      id,
      accountId,
    ]);
    return deleted.length === 1;
  },

  /** Serializes changes of the organization's hierarchy, so two concurrent moves cannot close a cycle. */
  async lockHierarchy(db: Executor, accountId: string) {
    await db.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
  },

  /** Whether `blockId` is `parentId` or one of its ancestors. */
  async isSelfOrAncestor(db: Executor, accountId: string, blockId: number, parentId: number) {
    const [row] = await db.query<{ found: boolean }>(
      `WITH RECURSIVE ancestors (id, parent_id) AS (
         SELECT id, parent_id FROM building_blocks WHERE id = $1 AND account_id = $2
         UNION
         SELECT b.id, b.parent_id FROM building_blocks b JOIN ancestors a ON b.id = a.parent_id WHERE b.account_id = $2
       )
       SELECT EXISTS (SELECT 1 FROM ancestors WHERE id = $3) AS found`,
      [parentId, accountId, blockId],
    );
    return row!.found;
  },
};
