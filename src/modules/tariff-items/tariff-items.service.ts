import type { ListParams } from '../../db/list-page.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { conflictOnDuplicate } from '../../http/database-conflicts.ts';
import { badRequest, formatIssues, notFound } from '../../http/errors.ts';
import type { TariffItem } from '../tariffs/tariffs.model.ts';
import { addressedAccount, type TariffAccess, touScheduleId } from '../tariffs/tariffs.model.ts';
import { hasDemandFields, type ItemDemandFields, itemFieldViolations } from './item-rules.ts';
import { type ItemInput, tariffItemsRepository as repo } from './tariff-items.repository.ts';
import type { CreateItemsBody, ItemChanges } from './tariff-items.schemas.ts';

export interface TariffItemsDeps {
  db: Database;
  tariffAccess: Pick<TariffAccess, 'tariff' | 'changed' | 'lockedType' | 'transaction'>;
}

/** An item as a write leaves it, and where its fields sit in the request body. */
interface WrittenItem {
  item: ItemDemandFields;
  path: string[];
}

const duplicateMessage = (item: { item_type_code: string; season: string }) =>
  `The tariff already has an item ${item.item_type_code} for season ${item.season}`;

/** An item of a tariff of an organization. */
interface ItemKey {
  accountId: string;
  tariffId: number;
  itemId: number;
}

/** The item, else 404. */
export async function requireItem(db: Executor, { accountId, tariffId, itemId }: ItemKey): Promise<TariffItem> {
  const item = await repo.find(db, accountId, tariffId, itemId);
  if (!item) throw notFound('Tariff item');
  return item;
}

/** Within a write's transaction: locks the item (404 when it is gone) and returns it. */
export async function lockItem(tx: Executor, key: ItemKey): Promise<TariffItem> {
  if (!(await repo.lock(tx, key.accountId, key.tariffId, key.itemId))) throw notFound('Tariff item');
  return requireItem(tx, key);
}

type AccessedTariff = Awaited<ReturnType<TariffItemsDeps['tariffAccess']['tariff']>>;

/**
 * Write-time help (extensions §12.1): the tariff's items that can never apply, named in the
 * answer's message (null when every item can apply). They are stored all the same; a bill names
 * the quantities no item prices.
 */
async function neverApplyingMessage(tx: Executor, tariff: AccessedTariff): Promise<string | null> {
  const items = await repo.neverApplying(tx, tariff.id, tariff.dso_id, touScheduleId(tariff));
  if (items.length === 0) return null;
  const why = items[0]!.no_dso ? 'the tariff has no DSO, so no seasons' : "the tariff's DSO has no such season";
  const names = items.map((item) => `${item.item_type_code} ${item.season}`).join(', ');
  return `Items that can never apply, as no day has their season and their type has other items: ${names} (${why})`;
}

export function createTariffItemsService({ db, tariffAccess: access }: TariffItemsDeps) {
  /**
   * 400 naming each field that the item's unit or its tariff's type does not allow (extensions
   * §11.5). The tariff's type is read on its row, locked until the write commits.
   */
  async function assertItemFields(tx: Executor, accountId: string, tariffId: number, written: WrittenItem[]) {
    const checked = written.filter(({ item }) => hasDemandFields(item));
    if (checked.length === 0) return;
    const units = await repo.typeUnits(tx, [...new Set(checked.map(({ item }) => item.item_type_code))]);
    const needsType = checked.some(({ item }) => item.demand_periods != null);
    const tariffType = needsType ? await access.lockedType(tx, tariffId, accountId) : null;
    const violations = checked.flatMap(({ item, path }) =>
      itemFieldViolations(item, units.get(item.item_type_code) ?? '', tariffType).map((violation) => ({
        ...violation,
        path: [...path, ...violation.path],
      })),
    );
    if (violations.length > 0) throw badRequest(formatIssues(violations, 'body'));
  }

  return {
    async list(auth: AuthContext, tariffId: number, query: ListParams & { account_id?: string | undefined }) {
      const tariff = await access.tariff(auth, tariffId, query.account_id, 'read');
      return repo.list(db, tariff.account_id, tariffId, query);
    },

    /** All items or none: a duplicate (in the tariff or within the batch) rolls the whole batch back. */
    async create(auth: AuthContext, tariffId: number, accountId: string | undefined, body: CreateItemsBody) {
      const items: ItemInput[] = Array.isArray(body) ? body : [body];
      const bodyAccountId = Array.isArray(body) ? undefined : body.account_id;
      const tariff = await access.tariff(auth, tariffId, addressedAccount(accountId, bodyAccountId), 'write');
      return access.transaction(auth, tariff.account_id, async (tx) => {
        await access.changed(tx, tariffId);
        const paths = (index: number) => (Array.isArray(body) ? [String(index)] : []);
        await assertItemFields(
          tx,
          tariff.account_id,
          tariffId,
          items.map((item, index) => ({ item, path: paths(index) })),
        );
        const created: TariffItem[] = [];
        for (const item of items) {
          const inserted = await conflictOnDuplicate(
            repo.insert(tx, tariff.account_id, tariffId, item),
            duplicateMessage(item),
          );
          if (!inserted) throw notFound('Tariff');
          created.push(inserted);
        }
        return { items: created, message: await neverApplyingMessage(tx, tariff) };
      });
    },

    async update(
      auth: AuthContext,
      tariffId: number,
      itemId: number,
      accountId: string | undefined,
      changes: ItemChanges,
    ) {
      const tariff = await access.tariff(auth, tariffId, addressedAccount(accountId, changes.account_id), 'write');
      return access.transaction(auth, tariff.account_id, async (tx) => {
        const current = await lockItem(tx, { accountId: tariff.account_id, tariffId, itemId });
        await access.changed(tx, tariffId);
        const { account_id: _account, ...fieldChanges } = changes;
        const next = { ...current, ...fieldChanges };
        await assertItemFields(tx, tariff.account_id, tariffId, [{ item: next, path: [] }]);
        const updated = await conflictOnDuplicate(
          repo.update(tx, tariff.account_id, tariffId, itemId, next),
          duplicateMessage(next),
        );
        if (!updated) throw notFound('Tariff item');
        return { item: updated, message: await neverApplyingMessage(tx, tariff) };
      });
    },

    async remove(auth: AuthContext, tariffId: number, itemId: number, accountId: string | undefined) {
      const tariff = await access.tariff(auth, tariffId, accountId, 'write');
      await access.transaction(auth, tariff.account_id, async (tx) => {
        await lockItem(tx, { accountId: tariff.account_id, tariffId, itemId });
        await access.changed(tx, tariffId);
        await repo.delete(tx, tariff.account_id, tariffId, itemId);
      });
    },
  };
}

export type TariffItemsService = ReturnType<typeof createTariffItemsService>;
