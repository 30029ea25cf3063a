import type { Executor } from './types.ts';

/** The roles a member may hold in an organization (the memberships table's check). */
export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';
export const ROLES: readonly [Role, ...Role[]] = ['OWNER', 'ADMIN', 'MEMBER'];

/** The role of each member of the organization, by user id. */
export async function memberRoles(db: Executor, accountId: string): Promise<Map<string, Role>> {
  const rows = await db.query<{ user_id: string; role: Role }>(
    'SELECT user_id, role FROM memberships WHERE account_id = $1',
    [accountId],
  );
  return new Map(rows.map((r) => [r.user_id, r.role]));
}

/**
 * Within a write's transaction: the user's role in the organization, read from the table and kept
 * until the transaction ends. The organization's row is locked first (FOR KEY SHARE: its deletion
 * waits, or came first and nothing is found), then the membership's (FOR SHARE: a removal or a change
 * of role waits, or came first and is seen): the order every write takes them in.
 */
export async function lockedRole(tx: Executor, accountId: string, userId: string): Promise<Role | undefined> {
  const [account] = await tx.query('SELECT id FROM accounts WHERE id = $1 FOR KEY SHARE', [accountId], {
    reusePlan: true,
  });
  if (!account) return undefined;
  const [membership] = await tx.query<{ role: Role }>(
    'SELECT role FROM memberships WHERE account_id = $1 AND user_id = $2 FOR SHARE',
    [accountId, userId],
    { reusePlan: true },
  );
  return membership?.role;
}
