import type { Database, Executor } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { conflictOnDuplicate } from '../../http/database-conflicts.ts';
import { notFound } from '../../http/errors.ts';
import type { ListParams } from '../../db/list-page.ts';
import { addressedAccount, type TariffAccess } from '../tariffs/tariff-access.ts';
import { type ItemInput, tariffItemsRepository as repo, type TariffItem } from './tariff-items.repository.ts';
import type { CreateItemsBody, ItemChanges } from './tariff-items.schemas.ts';

export interface TariffItemsDeps {
  db: Database;
  tariffAccess: Pick<TariffAccess, 'tariff' | 'changed'>;
}

const duplicateMessage = (item: { item_type_code: string; season: string }) =>
  `The tariff already has an item ${item.item_type_code} for season ${item.season}`;

/** The item of that tariff, else 404. */
export async function requireItem(db: Executor, tariffId: number, itemId: number): Promise<TariffItem> {
  const item = await repo.find(db, tariffId, itemId);
  if (!item) throw notFound('Tariff item');
  return item;
}

/** Within a write's transaction: locks the item of that tariff (404 when it is gone) and returns it. */
export async function lockItem(tx: Executor, tariffId: number, itemId: number): Promise<TariffItem> {
  if (!(await repo.lock(tx, tariffId, itemId))) throw notFound('Tariff item');
  return requireItem(tx, tariffId, itemId);
}

export function createTariffItemsService({ db, tariffAccess: access }: TariffItemsDeps) {
  return {
    async list(auth: AuthContext, tariffId: number, query: ListParams & { account_id?: string | undefined }) {
      await access.tariff(auth, tariffId, query.account_id, 'read');
      return repo.list(db, tariffId, query);
    },

    /** All items or none: a duplicate (in the tariff or within the batch) rolls the whole batch back. */
    async create(auth: AuthContext, tariffId: number, accountId: string | undefined, body: CreateItemsBody) {
      const items: ItemInput[] = Array.isArray(body) ? body : [body];
      const bodyAccountId = Array.isArray(body) ? undefined : body.account_id;
      await access.tariff(auth, tariffId, addressedAccount(accountId, bodyAccountId), 'write');
      return db.transaction(async (tx) => {
        await access.changed(tx, tariffId);
        const created: TariffItem[] = [];
        for (const item of items) {
          created.push(await conflictOnDuplicate(repo.insert(tx, tariffId, item), duplicateMessage(item)));
        }
        return created;
      });
    },

    async update(
      auth: AuthContext,
      tariffId: number,
      itemId: number,
      accountId: string | undefined,
      changes: ItemChanges,
    ) {
      await access.tariff(auth, tariffId, addressedAccount(accountId, changes.account_id), 'write');
      return db.transaction(async (tx) => {
        const current = await lockItem(tx, tariffId, itemId);
        await access.changed(tx, tariffId);
        return conflictOnDuplicate(repo.update(tx, tariffId, itemId, changes), duplicateMessage({ ...current, ...changes }));
      });
    },

    async remove(auth: AuthContext, tariffId: number, itemId: number, accountId: string | undefined) {
      await access.tariff(auth, tariffId, accountId, 'write');
      await db.transaction(async (tx) => {
        await lockItem(tx, tariffId, itemId);
        await access.changed(tx, tariffId);
        await repo.delete(tx, tariffId, itemId);
      });
    },
  };
}

export type TariffItemsService = ReturnType<typeof createTariffItemsService>;
