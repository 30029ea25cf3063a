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
