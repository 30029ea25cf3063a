import type { Database, Executor } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TariffAccess } from './tariff-access.ts';
import type { ReferenceReader, TariffDetails, TariffItemsReader } from './tariff-details.ts';
import type { TariffType } from './tariff-enums.ts';
import {
  assertTariffRules,
  DEMAND_PERIODS_NEED_TIME_OF_USE,
  overlappingVersions,
  touScheduleId,
} from './tariff-rules.ts';
import { tariffsRepository as repo } from './tariffs.repository.ts';
import type { CreateTariffBody, TariffChanges, TariffListQuery, UpdateTariffBody } from './tariffs.schemas.ts';

export interface TariffsDeps {
  db: Database;
  tariffAccess: Pick<TariffAccess, 'requireAccount' | 'tariff' | 'changed' | 'transaction'>;
  details: TariffDetails;
  items: Pick<TariffItemsReader, 'withDemandPeriods'>;
  reference: ReferenceReader;
}

/** 409 while a meter, a dashboard config or a transition names the tariff. */
async function assertUnreferenced(db: Executor, id: number): Promise<void> {
  const references = await repo.references(db, id);
  const users = [
    references.meters && 'a meter',
    references.configs && 'an energy dashboard config',
    references.transitions && 'a tariff transition',
  ].filter(Boolean);
  if (users.length > 0) throw conflict(`The tariff is still referenced by ${users.join(', ')}`, 'TARIFF_IN_USE');
}

/** The tariff locked for a write to it (404 once deleted): its rules are checked on this row, not on a cached copy. */
async function lockTariff(tx: Executor, id: number, accountId: string) {
  const tariff = await repo.lockForWrite(tx, id, accountId);
  if (!tariff) throw notFound('Tariff');
  return tariff;
}

/**
 * Runs on the locked tariff: a write naming it holds FOR SHARE on it until it commits, so the lock
 * waits for it and the check below sees its reference.
 */
async function softDelete(tx: Executor, id: number, accountId: string, at: string | null): Promise<void> {
  await assertUnreferenced(tx, id);
  await repo.softDelete(tx, id, accountId, at);
}

export function createTariffsService({
  db,
  tariffAccess: access,
  details: tariffDetails,
  items: tariffItems,
  reference,
}: TariffsDeps) {
  /** dso_id and tou_schedule_id, when set, must name existing reference rows (400). */
  async function assertReferencesExist(db: Executor, fields: TariffChanges): Promise<void> {
    if (typeof fields.dso_id === 'number' && !(await reference.dso(db, fields.dso_id))) {
      throw badRequest(`dso_id: Unknown DSO ${fields.dso_id}`);
    }
    if (typeof fields.tou_schedule_id === 'number' && !(await reference.scheduleExists(db, fields.tou_schedule_id))) {
      throw badRequest(`tou_schedule_id: Unknown time-of-use schedule ${fields.tou_schedule_id}`);
    }
  }

  /**
   * 400 when a tariff leaves TIME_OF_USE while items of it have demand_periods. Run on the locked
   * tariff: an item write that sets demand_periods locks it FOR SHARE and checks the type it reads there.
   */
  async function assertItemsAllowType(tx: Executor, id: number, from: TariffType, to: TariffType): Promise<void> {
    if (from !== 'TIME_OF_USE' || to === 'TIME_OF_USE') return;
    const items = await tariffItems.withDemandPeriods(tx, id);
    if (items.length > 0) {
      throw badRequest(
        `tariff_type: ${DEMAND_PERIODS_NEED_TIME_OF_USE}; set demand_periods to null on items ${items.join(', ')} first`,
      );
    }
  }

  return {
    async list(auth: AuthContext, query: TariffListQuery) {
      await access.requireAccount(auth, query.account_id, 'read');
      return repo.list(db, { ...query, accountId: query.account_id }, query);
    },

    async create(auth: AuthContext, body: CreateTariffBody) {
      const { account_id, ...fields } = body;
      await access.requireAccount(auth, account_id, 'write');
      return access.transaction(auth, account_id, async (tx) => {
        await assertReferencesExist(tx, fields);
        return tariffDetails(tx, await overlappingVersions(repo.insert(tx, account_id, fields)));
      });
    },

    async get(auth: AuthContext, id: number, accountId: string) {
      return access.tariff(auth, id, accountId, 'read');
    },

    async update(auth: AuthContext, id: number, body: UpdateTariffBody) {
      const { account_id, deleted_at, updated_by, ...changes } = body;
      await access.tariff(auth, id, account_id, 'write');
      if (updated_by !== undefined && updated_by !== auth.userId) {
        throw badRequest("updated_by: Must be the signed-in user's id (the change is recorded as theirs)");
      }
      return access.transaction(auth, account_id, async (tx) => {
        const current = await lockTariff(tx, id, account_id);
        assertTariffRules({ ...current, ...changes });
        await assertItemsAllowType(tx, id, current.tariff_type, changes.tariff_type ?? current.tariff_type);
        await assertReferencesExist(tx, changes);
        await access.changed(tx, id);
        const updated = await overlappingVersions(repo.update(tx, id, account_id, changes, auth.userId));
        if (deleted_at) await softDelete(tx, id, account_id, deleted_at);
        return tariffDetails(tx, updated);
      });
    },

    async remove(auth: AuthContext, id: number, accountId: string) {
      await access.tariff(auth, id, accountId, 'write');
      await access.transaction(auth, accountId, async (tx) => {
        await lockTariff(tx, id, accountId);
        await access.changed(tx, id);
        await softDelete(tx, id, accountId, null);
      });
    },

    async schedule(auth: AuthContext, id: number, accountId: string) {
      const tariff = await access.tariff(auth, id, accountId, 'read');
      const scheduleId = touScheduleId(tariff);
      if (scheduleId === null) throw badRequest(`Tariff ${id} is not TIME_OF_USE`);
      const schedule = await reference.schedule(db, scheduleId);
      if (!schedule) throw notFound('Time-of-use schedule');
      return schedule;
    },
  };
}

export type TariffsService = ReturnType<typeof createTariffsService>;
