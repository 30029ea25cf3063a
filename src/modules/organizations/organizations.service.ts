import type { ListParams } from '../../db/list-page.ts';
import type { Role } from '../../db/memberships.ts';
import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database, Executor, Transaction } from '../../db/types.ts';
import { type AccessGuard, roleAllows } from '../../http/access-guard.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { organizationsRepository as repo } from './organizations.repository.ts';
import type { AddMember, OrganizationChanges } from './organizations.schemas.ts';

export interface OrganizationsDeps {
  db: Database;
  guard: AccessGuard;
  cache: ReadCache;
  /** Organizations one user may create in 24 hours (ORGANIZATIONS_PER_USER_PER_DAY). */
  perUserPerDay: number;
}

const DAY_S = 86_400;

const tooManyCreated = (limit: number, retryAfterS: number) =>
  new AppError(429, 'Too many requests', `A user may create at most ${limit} organizations in 24 hours; retry later`, {
    headers: { 'retry-after': String(retryAfterS) },
  });

export function createOrganizationsService({ db, guard, cache, perUserPerDay }: OrganizationsDeps) {
  const membershipsChange = (tx: Transaction, id: string) => cache.invalidate(tx, cacheKeys.memberships(id));

  /** 404 for an unknown organization, then the guard's 403 for a non-member or a role too weak. */
  async function access(auth: AuthContext, id: string, need: 'read' | 'write' | 'owner') {
    const organization = await repo.find(db, id);
    if (!organization) throw notFound('Organization');
    try {
      return { organization, role: await guard.require(auth, id, need) };
    } catch (error) {
      // Deleted in between (its memberships went with it): unknown, as for a request that came after.
      if (!(await repo.find(db, id))) throw notFound('Organization');
      throw error;
    }
  }

  /** Only an OWNER may grant, change or remove the OWNER role. */
  function assertMayManage(callerRole: Role, targetRole: Role) {
    if (targetRole === 'OWNER' && callerRole !== 'OWNER')
      throw forbidden('Only an OWNER may manage owners', 'OWNER_ONLY');
  }

  /**
   * Within a transaction that changes the organization or its members: locks its row (404 once
   * gone) and checks the caller's role again on the memberships table, as the access guard would.
   * A racing change that committed first (the caller removed, say) is seen here.
   */
  async function lockedRole(tx: Executor, auth: AuthContext, id: string, need: 'write' | 'owner'): Promise<Role> {
    if (!(await repo.lock(tx, id, need === 'owner' ? 'delete' : 'members'))) throw notFound('Organization');
    const role = await repo.roleOf(tx, id, auth.userId);
    if (!role) throw forbidden('You are not a member of this organization');
    if (!roleAllows(role, need)) throw forbidden('Your role does not allow this action', 'ROLE_NOT_ALLOWED');
    return role;
  }

  /**
   * Within a transaction that changes a member: the caller's role, once the member is found (404),
   * is not the primary owner (409 with the refusal given) and may be managed by the caller (403).
   */
  async function lockedMemberChange(
    tx: Transaction,
    auth: AuthContext,
    id: string,
    userId: string,
    primaryOwnerRefusal: string,
  ): Promise<Role> {
    const role = await lockedRole(tx, auth, id, 'write');
    const member = await repo.findMember(tx, id, userId);
    if (!member) throw notFound('Member');
    if (member.is_primary_owner) throw conflict(primaryOwnerRefusal, 'PRIMARY_OWNER');
    assertMayManage(role, member.role);
    await membershipsChange(tx, id);
    return role;
  }

  return {
    async create(auth: AuthContext, body: { name: string; primary_owner_user_id: string }) {
      if (body.primary_owner_user_id !== auth.userId) throw forbidden('primary_owner_user_id must be the caller');
      // Counted on the caller's locked row: racing creations of one user are counted one after another.
      return db.transaction(async (tx) => {
        const recent = await repo.lockRecentCreations(tx, auth.userId);
        if (recent.count >= perUserPerDay) throw tooManyCreated(perUserPerDay, recent.secondsLeft ?? DAY_S);
        await repo.recordCreation(tx, auth.userId);
        return repo.insert(tx, body.name, auth.userId);
      });
    },

    async get(auth: AuthContext, id: string) {
      return (await access(auth, id, 'read')).organization;
    },

    async update(auth: AuthContext, id: string, changes: OrganizationChanges) {
      await access(auth, id, 'write');
      return db.transaction(async (tx) => {
        await lockedRole(tx, auth, id, 'write');
        return repo.update(tx, id, changes);
      });
    },

    async remove(auth: AuthContext, id: string) {
      const { organization } = await access(auth, id, 'owner');
      if (organization.is_personal_account) {
        throw badRequest('A personal account cannot be deleted');
      }
      await db.transaction(async (tx) => {
        await lockedRole(tx, auth, id, 'owner');
        if (await repo.hasDependents(tx, id)) {
          throw conflict(
            'The organization has dependent records (building blocks, meters or tariffs)',
            'ORGANIZATION_NOT_EMPTY',
          );
        }
        await membershipsChange(tx, id);
        await repo.delete(tx, id);
      });
    },

    async listMembers(auth: AuthContext, id: string, list: ListParams) {
      await access(auth, id, 'read');
      return repo.listMembers(db, id, list);
    },

    async addMember(auth: AuthContext, id: string, body: AddMember) {
      const { role } = await access(auth, id, 'write');
      assertMayManage(role, body.role);
      const userId = await repo.userIdOf(db, body);
      if (!userId) throw notFound('User', 'USER_NOT_FOUND');
      const member = await db.transaction(async (tx) => {
        assertMayManage(await lockedRole(tx, auth, id, 'write'), body.role);
        await membershipsChange(tx, id);
        return repo.insertMember(tx, id, userId, body.role);
      });
      if (!member) throw conflict('The user is already a member of this organization', 'ALREADY_MEMBER');
      return member;
    },

    async changeMemberRole(auth: AuthContext, id: string, userId: string, newRole: Role) {
      await access(auth, id, 'write');
      return db.transaction(async (tx) => {
        const role = await lockedMemberChange(tx, auth, id, userId, "The primary owner's role cannot be changed");
        assertMayManage(role, newRole);
        return repo.updateMemberRole(tx, id, userId, newRole);
      });
    },

    async removeMember(auth: AuthContext, id: string, userId: string) {
      await access(auth, id, 'write');
      await db.transaction(async (tx) => {
        await lockedMemberChange(tx, auth, id, userId, 'The primary owner cannot be removed');
        await repo.deleteMember(tx, id, userId);
      });
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
