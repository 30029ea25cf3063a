import { memberRoles, type Role } from '../db/memberships.ts';
import { cacheKeys, type ReadCache } from '../db/read-cache.ts';
import type { Executor } from '../db/types.ts';
import type { AuthContext } from './auth-context.ts';
import { forbidden, notFound } from './errors.ts';

/** read: any member; write: OWNER or ADMIN; owner: OWNER only. */
export type Access = 'read' | 'write' | 'owner';

const ALLOWED: Record<Access, readonly Role[]> = {
  read: ['OWNER', 'ADMIN', 'MEMBER'],
  write: ['OWNER', 'ADMIN'],
  owner: ['OWNER'],
};

/** Whether the role may do what access asks. */
export function roleAllows(role: Role, access: Access): boolean {
  return ALLOWED[access].includes(role);
}

export interface AccessGuard {
  /** The caller's role in accountId, or 403 when not a member or the role may not do this. */
  require(auth: AuthContext, accountId: string, access: Access): Promise<Role>;
}

/** The roles of an organization's members, from the read cache (one entry per organization). */
function rolesOf(db: Executor, cache: ReadCache, accountId: string): Promise<Map<string, Role>> {
  return cache.get(cacheKeys.memberships(accountId), () => memberRoles(db, accountId));
}

export function createAccessGuard(db: Executor, cache: ReadCache): AccessGuard {
  return {
    async require(auth, accountId, access) {
      const role = (await rolesOf(db, cache, accountId)).get(auth.userId);
      if (!role) throw forbidden('You are not a member of this organization');
      if (!roleAllows(role, access)) throw forbidden('Your role does not allow this action');
      return role;
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
