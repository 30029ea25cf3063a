import type { Executor } from '../db/types.ts';
import type { AuthContext } from './auth-context.ts';
import { forbidden, notFound } from './errors.ts';

export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';
export const ROLES: readonly [Role, ...Role[]] = ['OWNER', 'ADMIN', 'MEMBER'];

/** read: any member; write: OWNER or ADMIN; owner: OWNER only. */
export type Access = 'read' | 'write' | 'owner';

const ALLOWED: Record<Access, readonly Role[]> = {
  read: ['OWNER', 'ADMIN', 'MEMBER'],
  write: ['OWNER', 'ADMIN'],
  owner: ['OWNER'],
};

export interface AccessGuard {
  /** The caller's role in accountId, or 403 when not a member or the role may not do this. */
  require(auth: AuthContext, accountId: string, access: Access): Promise<Role>;
}

export function createAccessGuard(db: Executor): AccessGuard {
  return {
    async require(auth, accountId, access) {
      const [membership] = await db.query<{ role: Role }>(
        'SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2',
        [accountId, auth.userId],
      );
      if (!membership) throw forbidden('You are not a member of this organization');
      if (!ALLOWED[access].includes(membership.role)) throw forbidden('Your role does not allow this action');
      return membership.role;
    },
  };
}

/**
 * A resource looked up by id alone: 404 when it does not exist, 403 when it belongs to another
 * organization than the one addressed (the contract's order: 403 before 404 only for foreign rows).
 */
export function assertOwned<T extends { account_id: string }>(row: T | undefined, accountId: string, what: string): T {
  if (!row) throw notFound(what);
  if (row.account_id !== accountId) throw forbidden(`${what} belongs to another organization`);
  return row;
}
