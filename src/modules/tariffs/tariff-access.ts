import { cacheKeys, type ReadCache, tariffCacheKeys } from '../../db/read-cache.ts';
import type { Executor, Transaction } from '../../db/types.ts';
import { type Access, type AccessGuard, assertOwned } from '../../http/access-guard.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, catalogueReadOnly, notFound } from '../../http/errors.ts';
import { CATALOGUE_ACCOUNT_ID, isCatalogueAccount } from './tariff-basics.ts';
import type { TariffDetails } from './tariff-details.ts';
import { type TariffRow, tariffsRepository } from './tariffs.repository.ts';

export type TariffAccess = ReturnType<typeof createTariffAccess>;

/** What pricing through a family needs of each version: its id and its local effective dates. */
export type TariffVersion = Pick<TariffRow, 'id' | 'effective_from' | 'effective_to' | 'timezone'>;

/**
 * Access to tariffs and what hangs off them (items, blocks, schedule), in the contract's order:
 * catalogue guard (400) on writes, then 403 (not a member, role too weak, another organization's
 * tariff), then 404. The catalogue account is readable by every signed-in user.
 */
export function createTariffAccess(db: Executor, guard: AccessGuard, cache: ReadCache, tariffDetails: TariffDetails) {
  /** The live tariff with its items and DSO, from the read cache. */
  async function load(id: number) {
    return cache.get(cacheKeys.tariff(id), async () => {
      const tariff = await tariffsRepository.find(db, id);
      return tariff && tariffDetails(db, tariff);
    });
  }

  async function requireAccount(auth: AuthContext, accountId: string, access: Access): Promise<void> {
    if (isCatalogueAccount(accountId)) {
      if (access !== 'read') throw catalogueReadOnly();
      return;
    }
    await guard.require(auth, accountId, access);
  }

  return {
    requireAccount,

    /**
     * A tariff the organization accountId may price with: its own or one of the catalogue's (not
     * deleted). The caller needs read access to accountId.
     */
    async usableTariff(auth: AuthContext, id: number, accountId: string) {
      await requireAccount(auth, accountId, 'read');
      const tariff = await load(id);
      if (tariff && isCatalogueAccount(tariff.account_id)) return tariff;
      return assertOwned(tariff, accountId, 'Tariff');
    },

    /**
     * A tariff the organization's tariff history names: its own or the catalogue's, also when it
     * has been deleted since, so that a bill for a past period does not change.
     */
    async recordedTariff(auth: AuthContext, id: number, accountId: string) {
      await requireAccount(auth, accountId, 'read');
      const tariff = await cache.get(cacheKeys.tariffRecord(id), async () => {
        const row = await tariffsRepository.findEvenDeleted(db, id);
        return row && tariffDetails(db, row);
      });
      if (tariff && isCatalogueAccount(tariff.account_id)) return tariff;
      return assertOwned(tariff, accountId, 'Tariff');
    },

    /**
     * The tariffs a comparison for the organization may price when none are named: the live
     * electricity tariffs of the organization and the catalogue in `currency` (any when null), of
     * the DSO `dsoId` or of none (any DSO when dsoId is null). The caller has checked read access
     * to accountId.
     */
    comparableTariffIds: (accountId: string, currency: string | null, dsoId: number | null) =>
      tariffsRepository.comparableIds(db, [accountId, CATALOGUE_ACCOUNT_ID], currency, dsoId),

    /**
     * The live versions of each tariff's family with the tariff's owner (the organization or the
     * catalogue), by effective_from: [the tariff] for a tariff without a family. The caller may use
     * the tariffs.
     */
    async versionsOf(tariffs: readonly TariffRow[]): Promise<TariffVersion[][]> {
      const families = tariffs.flatMap((tariff) => (tariff.family === null ? [] : [tariff.family]));
      const owners = [...new Set(tariffs.map((tariff) => tariff.account_id))];
      const rows = families.length === 0 ? [] : await tariffsRepository.versionsOfFamilies(db, owners, families);
      return tariffs.map((tariff) =>
        tariff.family === null
          ? [tariff]
          : rows.filter((row) => row.account_id === tariff.account_id && row.family === tariff.family),
      );
    },

    /** For a record naming tariffs: which of ids are live tariffs of the organization, locked until the transaction ends. */
    lockLive: (tx: Executor, accountId: string, ids: number[]) => tariffsRepository.lockLive(tx, accountId, ids),

    /**
     * Within a write to the tariff's items: the tariff's type, on its row locked until the
     * transaction ends (404 once deleted), for a rule on items that depends on it.
     */
    async lockedType(tx: Executor, id: number, accountId: string) {
      const type = await tariffsRepository.lockedType(tx, id, accountId);
      if (!type) throw notFound('Tariff');
      return type;
    },

    /** Runs a write of the organization's tariffs in a transaction that checks the caller's role on the database first (AccessGuard.transaction). */
    transaction: <T>(auth: AuthContext, accountId: string, write: (tx: Transaction) => Promise<T>) =>
      guard.transaction(auth, accountId, 'write', write),

    /** Within a write's transaction: the caller's role checked on the database (AccessGuard.confirm). */
    confirm: (tx: Transaction, auth: AuthContext, accountId: string) => guard.confirm(tx, auth, accountId, 'write'),

    /** Within a write's transaction: the tariff (or its items or blocks) changes, so cached copies go. */
    changed: (tx: Transaction, id: number) => cache.invalidate(tx, ...tariffCacheKeys(id)),

    /**
     * The tariff `id`, not deleted. With accountId (given by the client) it must belong to that
     * organization; without, the caller needs the access to the tariff's own organization.
     */
    async tariff(auth: AuthContext, id: number, accountId: string | undefined, access: Access) {
      const tariff = await load(id);
      if (access !== 'read' && tariff && isCatalogueAccount(tariff.account_id)) throw catalogueReadOnly();
      if (accountId !== undefined) {
        await requireAccount(auth, accountId, access);
        return assertOwned(tariff, accountId, 'Tariff');
      }
      if (!tariff) throw notFound('Tariff');
      await requireAccount(auth, tariff.account_id, access);
      return tariff;
    },
  };
}

/** The organization a request addresses when account_id may come in the query and in the body. */
export function addressedAccount(fromQuery: string | undefined, fromBody: string | undefined): string | undefined {
  if (fromQuery !== undefined && fromBody !== undefined && fromQuery !== fromBody) {
    throw badRequest('account_id: The query and the body name different organizations');
  }
  return fromQuery ?? fromBody;
}
