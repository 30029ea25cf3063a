import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import type { CustomerClass, TariffType } from './tariff-enums.ts';
import { TARIFF_SORT, type TariffChanges } from './tariffs.schemas.ts';

export interface TariffRow {
  id: number;
  name: string;
  description: string | null;
  account_id: string;
  dso_id: number | null;
  tou_schedule_id: number | null;
  meter_type: string;
  tariff_type: TariffType;
  currency: string;
  tax_rate: number;
  is_active: boolean;
  effective_from: string;
  effective_to: string;
  timezone: string;
  notes: string | null;
  cloned_from: number | null;
  customer_classes: CustomerClass[] | null;
  min_nmd_kva: number | null;
  max_nmd_kva: number | null;
  family: string | null;
  created_at: Date;
  updated_at: Date;
  has_transition: boolean;
}

/** The columns a client may set: the allow-list that names columns in INSERT and UPDATE. */
export const WRITABLE_COLUMNS = [
  'name',
  'description',
  'dso_id',
  'tou_schedule_id',
  'meter_type',
  'tariff_type',
  'currency',
  'tax_rate',
  'is_active',
  'effective_from',
  'effective_to',
  'timezone',
  'notes',
  'cloned_from',
  'customer_classes',
  'min_nmd_kva',
  'max_nmd_kva',
  'family',
] as const satisfies readonly (keyof TariffChanges)[];

const RECORD_COLUMNS = ['id', 'account_id', ...WRITABLE_COLUMNS, 'created_at', 'updated_at'] as const;

/** Whether the tariff named `tariff` in the query is the predecessor of a transition (its only one). */
const hasTransition = (tariff: string) =>
  `EXISTS (SELECT 1 FROM tariff_transitions x WHERE x.predecessor_id = ${tariff}.id) AS has_transition`;
export const TARIFF_RECORD = `${RECORD_COLUMNS.join(', ')}, ${hasTransition('tariffs')}`;
const ALIASED_RECORD = `${RECORD_COLUMNS.map((c) => `t.${c}`).join(', ')}, ${hasTransition('t')}`;

interface TariffFilters {
  accountId: string;
  meter_type?: string | undefined;
  tariff_type?: string | undefined;
  dso_id?: number | undefined;
  effective_from_gte?: string | undefined;
  effective_from_lte?: string | undefined;
}

function presentColumns(changes: TariffChanges) {
  return WRITABLE_COLUMNS.filter((column) => changes[column] !== undefined);
}

export const tariffsRepository = {
  /** A tariff that is not deleted, whatever its organization (callers check ownership). */
  async find(db: Executor, id: number) {
    const [row] = await db.query<TariffRow>(
      `SELECT ${TARIFF_RECORD} FROM tariffs WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return row;
  },

  /** A tariff deleted or not, whatever its organization (callers check ownership). */
  async findEvenDeleted(db: Executor, id: number) {
    const [row] = await db.query<TariffRow>(`SELECT ${TARIFF_RECORD} FROM tariffs WHERE id = $1`, [id]);
    return row;
  },

  /**
   * The live tariff of the organization, locked for a write to it until the transaction ends. FOR
   * UPDATE also waits for the writes that name the tariff (they hold FOR SHARE or, through a
   * foreign key, FOR KEY SHARE on it) to commit.
   */
  async lockForWrite(db: Executor, id: number, accountId: string) {
    const [row] = await db.query<TariffRow>(
      `SELECT ${TARIFF_RECORD} FROM tariffs WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL FOR UPDATE`,
      [id, accountId],
    );
    return row;
  },

  /**
   * The type of the live tariff of the organization, on its row locked FOR SHARE until the
   * transaction ends: an update of the tariff (FOR UPDATE) waits for the transaction, and a
   * transaction that comes after the update reads the type it left.
   */
  async lockedType(db: Executor, id: number, accountId: string) {
    const [row] = await db.query<{ tariff_type: TariffType }>(
      'SELECT tariff_type FROM tariffs WHERE id = $1 AND account_id = $2 AND deleted_at IS NULL FOR SHARE',
      [id, accountId],
    );
    return row?.tariff_type;
  },

  /**
   * The ids of the tariffs a comparison may price by default: the live electricity tariffs of the
   * organization and the catalogue in `currency` (any when null) of the DSO `dsoId` or of none (any
   * DSO when dsoId is null).
   */
  async comparableIds(db: Executor, accountIds: [string, string], currency: string | null, dsoId: number | null) {
    const rows = await db.query<{ id: number }>(
      `SELECT id FROM tariffs WHERE deleted_at IS NULL AND account_id IN ($1, $2) AND meter_type = 'ELECTRICITY'
         AND ($3::text IS NULL OR currency = $3) AND ($4::int IS NULL OR dso_id IS NULL OR dso_id = $4)
       ORDER BY id`,
      [...accountIds, currency, dsoId],
    );
    return rows.map((r) => r.id);
  },

  /** The live versions of the families of the owners, by effective_from (callers pair owners and families). */
  versionsOfFamilies(db: Executor, accountIds: string[], families: string[]) {
    return db.query<TariffRow>(
      `SELECT ${TARIFF_RECORD} FROM tariffs
       WHERE deleted_at IS NULL AND account_id = ANY($1::uuid[]) AND family = ANY($2::text[])
       ORDER BY effective_from, id`,
      [accountIds, families],
    );
  },

  /**
   * Which of ids are live tariffs of the organization (not deleted): the ones another record may
   * name. Locked (FOR SHARE) until the transaction ends: a delete of one waits, then finds the
   * record that names it.
   */
  async lockLive(db: Executor, accountId: string, ids: number[]) {
    const rows = await db.query<{ id: number }>(
      'SELECT id FROM tariffs WHERE account_id = $1 AND id = ANY($2::int[]) AND deleted_at IS NULL FOR SHARE',
      [accountId, ids],
    );
    return rows.map((r) => r.id);
  },

  list(db: Executor, filters: TariffFilters, list: ListParams, fuzzy = false) {
    const params = new SqlParams();
    const where = [`t.account_id = ${params.add(filters.accountId)}`, 't.deleted_at IS NULL'];
    if (filters.meter_type) where.push(`t.meter_type = ${params.add(filters.meter_type)}`);
    if (filters.tariff_type) where.push(`t.tariff_type = ${params.add(filters.tariff_type)}`);
    if (filters.dso_id !== undefined) where.push(`t.dso_id = ${params.add(filters.dso_id)}`);
    if (filters.effective_from_gte) where.push(`t.effective_from >= ${params.add(filters.effective_from_gte)}`);
    if (filters.effective_from_lte) where.push(`t.effective_from <= ${params.add(filters.effective_from_lte)}`);
    return listPage<TariffRow>(
      db,
      {
        select: ALIASED_RECORD,
        from: 'tariffs t',
        where,
        params,
        search: { columns: ['t.name', 't.description'], fuzzy },
        sortColumns: TARIFF_SORT,
        tiebreak: 't.id',
      },
      list,
    );
  },

  async insert(db: Executor, accountId: string, fields: TariffChanges) {
    const params = new SqlParams();
    const columns = presentColumns(fields);
    const values = columns.map((column) => params.add(fields[column]));
    const [row] = await db.query<TariffRow>(
      `INSERT INTO tariffs (account_id, ${columns.join(', ')}) VALUES (${params.add(accountId)}, ${values.join(', ')})
       RETURNING ${TARIFF_RECORD}`,
      params.values,
    );
    return row!;
  },

  async update(db: Executor, id: number, accountId: string, changes: TariffChanges, updatedBy: string) {
    const params = new SqlParams();
    const assignments = presentColumns(changes).map((column) => `${column} = ${params.add(changes[column])}`);
    const [row] = await db.query<TariffRow>(
      `UPDATE tariffs SET ${[...assignments, `updated_by = ${params.add(updatedBy)}`, 'updated_at = now()'].join(', ')}
       WHERE id = ${params.add(id)} AND account_id = ${params.add(accountId)} RETURNING ${TARIFF_RECORD}`,
      params.values,
    );
    return row!;
  },

  /** What still names the tariff: a deleted tariff must not be priced or replaced. */
  async references(db: Executor, id: number) {
    const [row] = await db.query<{ meters: boolean; configs: boolean; transitions: boolean }>(
      `SELECT
         EXISTS (SELECT 1 FROM meters WHERE tariff_id = $1) AS meters,
         EXISTS (SELECT 1 FROM energy_dashboard_configs
                 WHERE $1 IN (grid_tariff_id, solar_tariff_id, genset_tariff_id, inverter_tariff_id, load_tariff_id)) AS configs,
         EXISTS (SELECT 1 FROM tariff_transitions WHERE $1 IN (predecessor_id, successor_id)) AS transitions`,
      [id],
    );
    return row!;
  },

  async softDelete(db: Executor, id: number, accountId: string, at: string | null) {
    await db.query(
      'UPDATE tariffs SET deleted_at = coalesce($3::timestamptz, now()) WHERE id = $1 AND account_id = $2',
      [id, accountId, at],
    );
  },
};
