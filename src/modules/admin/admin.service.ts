import type { ListParams } from '../../db/list-page.ts';
import { PG_ERROR } from '../../db/postgres-errors.ts';
import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import type { Caller } from '../../http/admission.ts';
import { conflictOn } from '../../http/database-conflicts.ts';
import { AppError, conflict, notFound } from '../../http/errors.ts';
import type { AuthService, Credentials } from '../auth/auth.service.ts';
import { adminRepository as repo } from './admin.repository.ts';

export interface AdminDeps {
  db: Database;
  cache: ReadCache;
  /** Users are created as a signup would create them. */
  users: Pick<AuthService, 'signup'>;
}

export function createAdminService({ db, cache, users }: AdminDeps) {
  return {
    /** `client` is the request's address, whose turn the password's hash takes, as a signup's does. */
    async createUser(credentials: Credentials, client: Caller) {
      try {
        return (await users.signup(credentials, client)).user;
      } catch (error) {
        if (error instanceof AppError && error.statusCode === 401)
          throw conflict('User already registered', 'EMAIL_TAKEN');
        throw error;
      }
    },

    listUsers: (list: ListParams) => repo.listUsers(db, list),

    async deleteUser(id: string) {
      const deletion = db.transaction(async (tx) => {
        const memberOf = await repo.organizationsOf(tx, id);
        await cache.invalidate(tx, ...memberOf.map((accountId) => cacheKeys.memberships(accountId)));
        if (!(await repo.deleteUser(tx, id))) throw notFound('User');
      });
      // The user is the primary owner of an organization that still holds records.
      await conflictOn(deletion, PG_ERROR.FOREIGN_KEY_VIOLATION, 'The user owns organizations with records');
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
