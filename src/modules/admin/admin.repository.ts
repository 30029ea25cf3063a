import { type ListParams, listPage } from '../../db/list-page.ts';
import { SqlParams } from '../../db/sql-params.ts';
import type { Executor } from '../../db/types.ts';
import { USER_SORT } from './admin.schemas.ts';

export const adminRepository = {
  listUsers(db: Executor, list: ListParams) {
    return listPage(
      db,
      {
        select: 'u.id, u.email, u.created_at',
        from: 'users u',
        where: [],
        params: new SqlParams(),
        search: { columns: ['u.email'] },
        sortColumns: USER_SORT,
        tiebreak: 'u.id',
      },
      list,
    );
  },

  /** The organizations the user is a member of. */
  async organizationsOf(db: Executor, userId: string) {
    const rows = await db.query<{ account_id: string }>('SELECT account_id FROM memberships WHERE user_id = $1', [
      userId,
    ]);
    return rows.map((r) => r.account_id);
  },

  /** Whether the user was deleted; fails with a foreign key violation while the user owns organizations with records. */
  async deleteUser(db: Executor, id: string) {
    const deleted = await db.query('DELETE FROM users WHERE id = $1 RETURNING id', [id]);
    return deleted.length > 0;
  },
};
