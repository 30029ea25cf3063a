import { lockedRole, memberRoles, type Role } from '../db/memberships.ts';
import { cacheKeys, type ReadCache } from '../db/read-cache.ts';
import type { Database, Executor, Transaction } from '../db/types.ts';
import type { AuthContext } from './auth-context.ts';
import { forbidden, INVALID_TOKEN, notFound, unauthorized } from './errors.ts';
import type { GatewayKeys } from './gateway-callers.ts';

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
  /**
   * The caller's role in accountId, or 403 when not a member or the role may not do this. From the
   * read cache: on another process's change, up to CACHE_STALE_MS old. Enough for a read; a write
   * runs in transaction() too.
   */
  require(auth: AuthContext, accountId: string, access: Access): Promise<Role>;
  /**
   * Within a write's transaction: the caller's role checked again on the memberships table, its row
   * locked until the transaction ends (403 as require()). A removal or a change of role answered
   * before the write began is always seen, on every process; one that comes later waits for the
   * write. A write that locks the organization's row for an update does so before this (the order
   * membership changes take). A gateway's key is checked again on its locked row (401 once rotated
   * or deleted).
   */
  confirm(tx: Transaction, auth: AuthContext, accountId: string, access: Exclude<Access, 'read'>): Promise<Role>;
  /** Runs a write of accountId's data in a transaction that confirm()s the caller's role first. */
  transaction<T>(
    auth: AuthContext,
    accountId: string,
    access: Exclude<Access, 'read'>,
    write: (tx: Transaction) => Promise<T>,
  ): Promise<T>;
}

function assertAllows(role: Role | undefined, access: Access): Role {
  if (!role) throw forbidden('You are not a member of this organization');
  if (!roleAllows(role, access)) throw forbidden('Your role does not allow this action', 'ROLE_NOT_ALLOWED');
  return role;
}

/**
 * A gateway writes its own organization's data as an administrator would, on the routes that take
 * its key only (authenticate.ts, which refuses it everywhere else); it owns nothing.
 */
function assertGatewayAllows(gatewayAccountId: string, accountId: string, access: Access): Role {
  if (gatewayAccountId !== accountId) throw forbidden('The gateway belongs to another organization');
  return assertAllows('ADMIN', access);
}

/** The roles of an organization's members, from the read cache (one entry per organization). */
function rolesOf(db: Executor, cache: ReadCache, accountId: string): Promise<Map<string, Role>> {
  return cache.get(cacheKeys.memberships(accountId), () => memberRoles(db, accountId));
}

export function createAccessGuard(db: Database, cache: ReadCache, gateways: GatewayKeys): AccessGuard {
  const confirm: AccessGuard['confirm'] = async (tx, auth, accountId, access) => {
    if (!auth.gateway) return assertAllows(await lockedRole(tx, accountId, auth.userId), access);
    const role = assertGatewayAllows(auth.gateway.accountId, accountId, access);
    if (!(await gateways.confirm(tx, auth.gateway))) throw unauthorized(INVALID_TOKEN, true);
    return role;
  };
  return {
    async require(auth, accountId, access) {
      if (auth.gateway) return assertGatewayAllows(auth.gateway.accountId, accountId, access);
      return assertAllows((await rolesOf(db, cache, accountId)).get(auth.userId), access);
    },
    confirm,
    transaction(auth, accountId, access, write) {
      return db.transaction(async (tx) => {
        await confirm(tx, auth, accountId, access);
        return write(tx);
      });
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
