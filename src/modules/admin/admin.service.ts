import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import { type ListParams, listPage, SqlParams } from '../../http/list.ts';
import type { AuthService, Credentials } from '../auth/auth.service.ts';

export const USER_SORT = { created_at: 'u.created_at', email: 'u.email', id: 'u.id' } as const;

export function createAdminService(db: Database, auth: AuthService, cache: ReadCache) {
  return {
    async createUser(credentials: Credentials) {
      try {
        return (await auth.signup(credentials)).user;
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401) throw conflict('User already registered');
        throw error;
      }
    },

    listUsers(list: ListParams) {
      const params = new SqlParams();
      return listPage(
        db,
        {
          select: 'u.id, u.email, u.created_at',
          from: 'users u',
          where: [],
          params,
          search: { columns: ['u.email'] },
          sortColumns: USER_SORT,
          tiebreak: 'u.id',
        },
        list,
      );
    },

    async deleteUser(id: string) {
      try {
        await db.transaction(async (tx) => {
          const memberOf = await tx.query<{ account_id: string }>('SELECT account_id FROM memberships WHERE user_id = $1', [id]);
          await cache.invalidate(tx, ...memberOf.map((m) => cacheKeys.memberships(m.account_id)));
          const deleted = await tx.query('DELETE FROM users WHERE id = $1 RETURNING id', [id]);
          if (deleted.length === 0) throw notFound('User');
        });
      } catch (error) {
        // The user is the primary owner of an organization that still holds records.
        if ((error as { code?: string }).code === '23503') throw conflict('The user owns organizations with records');
        throw error;
      }
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
