import { PG_ERROR, sqlState } from '../../db/postgres-errors.ts';
import { type CacheInvalidation, cacheKeys } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import { type Access, type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { conflictOn } from '../../http/database-conflicts.ts';
import { AppError, badRequest, notFound } from '../../http/errors.ts';
import { assertReferencesExist } from '../../http/references.ts';
import { buildingBlocksRepository as repo } from './building-blocks.repository.ts';
import {
  buildingTypeOf,
  type CreateBuildingBlock,
  type ListBuildingBlocksQuery,
  type UpdateBuildingBlock,
} from './building-blocks.schemas.ts';

export interface BuildingBlocksDeps {
  db: Database;
  guard: AccessGuard;
  /** A deleted block takes its dashboard config with it: the delete names the organization's building facts. */
  cache: CacheInvalidation;
}

/**
 * The contract's database-error form for a refused create (spec Errors rule 10): message null, and
 * error holding the database's own message and code as JSON. Integrity (23) and data (22) errors.
 */
function asDatabaseErrorForm(error: unknown): unknown {
  const code = sqlState(error);
  if (!code || !/^2[23]/.test(code)) return error;
  return new AppError(400, null, JSON.stringify({ message: (error as Error).message, code }), {
    code: 'DATABASE_ERROR',
  });
}

export function createBuildingBlocksService({ db, guard, cache }: BuildingBlocksDeps) {
  async function owned(auth: AuthContext, accountId: string, id: number, access: Access) {
    await guard.require(auth, accountId, access);
    return assertOwned(await repo.find(db, id), accountId, 'Building block');
  }

  return {
    /** For other modules, after their own access check: the block by id alone (whatever its organization). */
    find: (id: number) => repo.find(db, id),

    /** For a record naming blocks: which of ids are blocks of the organization, locked until the transaction ends. */
    lockReferenced: repo.lockExisting,

    async list(auth: AuthContext, query: ListBuildingBlocksQuery) {
      const { account_id: accountId, parent_id, ...list } = query;
      await guard.require(auth, accountId, 'read');
      return repo.list(db, accountId, { parent_id, building_type: buildingTypeOf(query) }, list);
    },

    async create(auth: AuthContext, body: CreateBuildingBlock) {
      const { account_id: accountId, ...values } = body;
      await guard.require(auth, accountId, 'write');
      // A new block has no children, so any existing parent of the organization is acceptable; the
      // composite foreign key refuses an unknown or foreign parent (23503).
      return guard
        .transaction(auth, accountId, 'write', (tx) => repo.insert(tx, accountId, values))
        .catch((error: unknown) => {
          throw asDatabaseErrorForm(error);
        });
    },

    get: (auth: AuthContext, accountId: string, id: number) => owned(auth, accountId, id, 'read'),

    async update(auth: AuthContext, id: number, body: UpdateBuildingBlock) {
      const { account_id: accountId, type: _alias, ...values } = body;
      await owned(auth, accountId, id, 'write');
      return db.transaction(async (tx) => {
        const parentId = values.parent_id;
        // A move locks the organization's row before the caller's role is confirmed: the order of
        // membership changes, which lock that row and then change a member's.
        if (parentId != null) await repo.lockHierarchy(tx, accountId);
        await guard.confirm(tx, auth, accountId, 'write');
        if (parentId != null) {
          await assertReferencesExist(tx, accountId, [{ kind: 'Building block', path: ['parent_id'], id: parentId }], {
            'Building block': repo.lockExisting,
          });
          if (await repo.isSelfOrAncestor(tx, accountId, id, parentId)) {
            throw badRequest(
              'parent_id: A building block cannot be its own parent or the parent of its ancestors',
              'BLOCK_PARENT_CYCLE',
            );
          }
        }
        const updated = await repo.update(tx, accountId, id, { ...values, building_type: buildingTypeOf(body) });
        if (!updated) throw notFound('Building block');
        return updated;
      });
    },

    async remove(auth: AuthContext, accountId: string, id: number) {
      await owned(auth, accountId, id, 'write');
      const deleted = await conflictOn(
        guard.transaction(auth, accountId, 'write', async (tx) => {
          const deleted = await repo.delete(tx, accountId, id);
          if (deleted) await cache.invalidate(tx, cacheKeys.buildingFacts(accountId));
          return deleted;
        }),
        PG_ERROR.FOREIGN_KEY_VIOLATION,
        'The building block has child blocks or meters',
        'BLOCK_NOT_EMPTY',
      );
      if (!deleted) throw notFound('Building block');
    },
  };
}

export type BuildingBlocksService = ReturnType<typeof createBuildingBlocksService>;
