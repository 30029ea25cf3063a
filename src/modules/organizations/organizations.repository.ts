import { type ListParams, listPage } from '../../db/list-page.ts';
import type { Role } from '../../db/memberships.ts';
import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import { MEMBER_SORT, type OrganizationChanges } from './organizations.schemas.ts';

const ORGANIZATION_COLUMNS =
  'id, name, email, picture_url, public_data, is_personal_account, primary_owner_user_id, created_at, updated_at';

interface OrganizationRow {
  id: string;
  name: string;
  is_personal_account: boolean;
  primary_owner_user_id: string | null;
}

const MEMBER_SELECT = `m.user_id, m.account_id, m.role, u.email,
  (a.primary_owner_user_id = m.user_id) AS is_primary_owner, m.created_at`;
const MEMBER_FROM = 'memberships m JOIN users u ON u.id = m.user_id JOIN accounts a ON a.id = m.account_id';

const LOCK_FOR_MEMBERS = 'SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE';
const LOCK_FOR_DELETE = 'SELECT id FROM accounts WHERE id = $1 FOR UPDATE';

export const organizationsRepository = {
  async find(db: Executor, id: string) {
    const [row] = await db.query<OrganizationRow>(`SELECT ${ORGANIZATION_COLUMNS} FROM accounts WHERE id = $1`, [id]);
    return row;
  },

  async insert(db: Executor, name: string, ownerId: string) {
    const [row] = await db.query<OrganizationRow>(
      `INSERT INTO accounts (name, primary_owner_user_id) VALUES ($1, $2) RETURNING ${ORGANIZATION_COLUMNS}`,
      [name, ownerId],
    );
    await db.query(`INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'OWNER')`, [row!.id, ownerId]);
    return row!;
  },

  /**
   * Locks the user's row until the transaction ends, so that one user's creations run one at a
   * time, forgets their creations older than a day, and tells how many remain and in how many
   * seconds the oldest of them is a day old (null when none remains).
   */
  async lockRecentCreations(db: Executor, userId: string) {
    await db.query('SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE', [userId]);
    await db.query(`DELETE FROM organization_creations WHERE user_id = $1 AND created_at <= now() - interval '1 day'`, [
      userId,
    ]);
    const [row] = await db.query<{ count: number; seconds_left: number | null }>(
      `SELECT count(*)::int AS count,
              greatest(1, ceil(extract(epoch FROM min(created_at) + interval '1 day' - now())))::int AS seconds_left
       FROM organization_creations WHERE user_id = $1`,
      [userId],
    );
    return { count: row!.count, secondsLeft: row!.seconds_left };
  },

  async recordCreation(db: Executor, userId: string) {
    await db.query('INSERT INTO organization_creations (user_id) VALUES ($1)', [userId]);
  },

  async update(db: Executor, id: string, changes: OrganizationChanges) {
    const [row] = await db.query<OrganizationRow>(
      `UPDATE accounts SET
         name = coalesce($2, name),
         email = CASE WHEN $3::boolean THEN $4 ELSE email END,
         picture_url = CASE WHEN $5::boolean THEN $6 ELSE picture_url END,
         public_data = coalesce($7::jsonb, public_data),
         updated_at = now()
       WHERE id = $1 RETURNING ${ORGANIZATION_COLUMNS}`,
      [
        id,
        changes.name ?? null,
        changes.email !== undefined,
        changes.email ?? null,
        changes.picture_url !== undefined,
        changes.picture_url ?? null,
        changes.public_data === undefined ? null : JSON.stringify(changes.public_data),
      ],
    );
    return row!;
  },

  /**
   * Locks the organization's row until the transaction ends, and tells whether it exists. 'members'
   * (FOR NO KEY UPDATE) makes membership changes run one at a time, each checking the roles the one
   * before left; 'delete' (FOR UPDATE) also waits for the writes whose foreign key names the
   * organization to commit, so that the dependents check sees them.
   */
  async lock(db: Executor, id: string, mode: 'members' | 'delete') {
    const rows = await db.query(mode === 'delete' ? LOCK_FOR_DELETE : LOCK_FOR_MEMBERS, [id]);
    return rows.length > 0;
  },

  /** The user's role in the organization, read from the table (not from a cache). */
  async roleOf(db: Executor, accountId: string, userId: string) {
    const [row] = await db.query<{ role: Role }>(
      'SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2',
      [accountId, userId],
    );
    return row?.role;
  },

  async hasDependents(db: Executor, id: string) {
    const [row] = await db.query<{ found: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM building_blocks WHERE account_id = $1)
           OR EXISTS (SELECT 1 FROM meters WHERE account_id = $1)
           OR EXISTS (SELECT 1 FROM tariffs WHERE account_id = $1 AND deleted_at IS NULL) AS found`,
      [id],
    );
    return row!.found;
  },

  /** Deletes the organization with its memberships and the tariffs it had already deleted. */
  async delete(db: Executor, id: string) {
    await db.query('DELETE FROM tariffs WHERE account_id = $1 AND deleted_at IS NOT NULL', [id]);
    await db.query('DELETE FROM accounts WHERE id = $1', [id]);
  },

  listMembers(db: Executor, accountId: string, list: ListParams) {
    const params = new SqlParams();
    return listPage(
      db,
      {
        select: MEMBER_SELECT,
        from: MEMBER_FROM,
        where: [`m.account_id = ${params.add(accountId)}`],
        params,
        search: { columns: ['u.email'] },
        sortColumns: MEMBER_SORT,
        tiebreak: 'm.user_id',
      },
      list,
    );
  },

  async findMember(db: Executor, accountId: string, userId: string) {
    const [row] = await db.query<{ role: Role; is_primary_owner: boolean }>(
      `SELECT ${MEMBER_SELECT} FROM ${MEMBER_FROM} WHERE m.account_id = $1 AND m.user_id = $2`,
      [accountId, userId],
    );
    return row;
  },

  /** Adds the member, or returns undefined when the user already is one. */
  async insertMember(db: Executor, accountId: string, userId: string, role: Role) {
    const inserted = await db.query(
      `INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING user_id`,
      [accountId, userId, role],
    );
    if (inserted.length === 0) return undefined;
    return organizationsRepository.findMember(db, accountId, userId);
  },

  async deleteMember(db: Executor, accountId: string, userId: string) {
    await db.query('DELETE FROM memberships WHERE account_id = $1 AND user_id = $2', [accountId, userId]);
  },

  /** The id of the user named by id or by e-mail (any case), or undefined when there is none. */
  async userIdOf(db: Executor, user: { userId?: string | undefined; email?: string | undefined }) {
    const [row] = user.userId
      ? await db.query<{ id: string }>('SELECT id FROM users WHERE id = $1', [user.userId])
      : await db.query<{ id: string }>('SELECT id FROM users WHERE email = lower($1)', [user.email]);
    return row?.id;
  },

  async updateMemberRole(db: Executor, accountId: string, userId: string, role: Role) {
    await db.query('UPDATE memberships SET role = $3 WHERE account_id = $1 AND user_id = $2', [
      accountId,
      userId,
      role,
    ]);
    return organizationsRepository.findMember(db, accountId, userId);
  },
};
