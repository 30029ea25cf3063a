import type { Executor } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { conflictOnDuplicate } from '../../http/database-conflicts.ts';
import { notFound } from '../../http/errors.ts';
import { addressedAccount, assertTierRules } from '../tariffs/tariffs.model.ts';
import { type BlockInput, tariffBlocksRepository as repo } from './tariff-blocks.repository.ts';
import type { BlockChanges } from './tariff-blocks.schemas.ts';
import { lockItem, requireItem, type TariffItemsDeps } from './tariff-items.service.ts';

/** The same as the items': tiers belong to items. */
type TariffBlocksDeps = TariffItemsDeps;

export interface BlockAddress {
  tariffId: number;
  itemId: number;
  accountId: string | undefined;
}

export function createTariffBlocksService({ db, tariffAccess: access }: TariffBlocksDeps) {
  /**
   * A write to the item's tiers, in a transaction that holds the item's lock: writes to one item's
   * tiers run one at a time, so each checks the tiers that the one before it left.
   */
  async function writeTiers<T>(
    auth: AuthContext,
    at: BlockAddress,
    write: (tx: Executor, accountId: string) => Promise<T>,
  ) {
    const { account_id: accountId } = await access.tariff(auth, at.tariffId, at.accountId, 'write');
    return access.transaction(auth, accountId, async (tx) => {
      await lockItem(tx, { accountId, tariffId: at.tariffId, itemId: at.itemId });
      await access.changed(tx, at.tariffId);
      return write(tx, accountId);
    });
  }

  return {
    async list(auth: AuthContext, at: BlockAddress) {
      const { account_id: accountId } = await access.tariff(auth, at.tariffId, at.accountId, 'read');
      await requireItem(db, { accountId, tariffId: at.tariffId, itemId: at.itemId });
      return repo.ofItem(db, accountId, at.itemId);
    },

    /** The item's whole tier set is replaced at once (an empty set clears it). */
    async replace(auth: AuthContext, at: BlockAddress, blocks: BlockInput[]) {
      return writeTiers(auth, at, async (tx, accountId) => {
        await repo.deleteAll(tx, accountId, at.itemId);
        await repo.insertAll(tx, accountId, at.itemId, blocks);
        return repo.ofItem(tx, accountId, at.itemId);
      });
    },

    /** The tier set that results must still be consistent, else nothing changes (400). */
    async update(auth: AuthContext, at: BlockAddress, blockId: number, changes: BlockChanges) {
      const address = { ...at, accountId: addressedAccount(at.accountId, changes.account_id) };
      return writeTiers(auth, address, async (tx, accountId) => {
        const updated = await conflictOnDuplicate(
          repo.update(tx, accountId, at.itemId, blockId, changes),
          `The item already has a block with block_index ${changes.block_index}`,
        );
        if (!updated) throw notFound('Tariff block');
        assertTierRules(await repo.ofItem(tx, accountId, at.itemId));
        return updated;
      });
    },

    async remove(auth: AuthContext, at: BlockAddress, blockId: number) {
      await writeTiers(auth, at, async (tx, accountId) => {
        if (!(await repo.delete(tx, accountId, at.itemId, blockId))) throw notFound('Tariff block');
      });
    },
  };
}

export type TariffBlocksService = ReturnType<typeof createTariffBlocksService>;
