import { type CacheInvalidation, cacheKeys, tariffCacheKeys } from '../../db/read-cache.ts';
import type { Database, Executor } from '../../db/types.ts';
import type { AuthContext } from '../../http/auth-context.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { TariffHistoryRecorder } from '../tariff-history/tariff-history.model.ts';
import type { TariffAccess } from '../tariffs/tariffs.model.ts';
import { type Application, applyTransition, NOT_APPLIED } from './transition-application.ts';
import { transitionsRepository as repo, type TransitionRow } from './transitions.repository.ts';
import type { CreateTransitionBody, UpdateTransitionBody } from './transitions.schemas.ts';

export interface TransitionsDeps {
  db: Database;
  tariffAccess: Pick<TariffAccess, 'tariff' | 'lockLive' | 'confirm' | 'transaction'>;
  /** Records each meter's and config source's switch in the tariff history, in the switch's transaction. */
  history: TariffHistoryRecorder;
  /**
   * Pending and applied transitions change what a building's cost prices: their writes name the
   * organization's building facts; a transition made or removed, its predecessor's record (has_transition).
   */
  cache: CacheInvalidation;
  now: () => Date;
}

const present = ({ account_id: _account, ...transition }: TransitionRow, application?: Application) =>
  application ? { ...transition, application } : transition;

export function createTransitionsService({ db, tariffAccess, history, cache, now }: TransitionsDeps) {
  /** Whether a transition may name the tariff (live, of the organization); it stays so until the transaction ends. */
  const lockLiveTariff = async (tx: Executor, accountId: string, id: number) =>
    (await tariffAccess.lockLive(tx, accountId, [id])).length > 0;

  /** The successor must be another live tariff of the organization, and must not lead back. */
  async function assertValidSuccessor(tx: Executor, accountId: string, predecessorId: number, successorId: number) {
    if (successorId === predecessorId)
      throw badRequest('successor_id: A tariff cannot be its own successor', 'TRANSITION_CYCLE');
    if (!(await lockLiveTariff(tx, accountId, successorId))) {
      throw badRequest('successor_id: The successor must be an existing tariff of the same organization');
    }
    if (await repo.chainReaches(tx, accountId, successorId, predecessorId)) {
      throw badRequest('successor_id: The transition would form a cycle back to the predecessor', 'TRANSITION_CYCLE');
    }
  }

  async function applyIfDue(tx: Executor, transition: TransitionRow) {
    const at = now();
    if (transition.effective_from.getTime() > at.getTime()) return { row: transition, application: NOT_APPLIED };
    const application = await applyTransition(tx, transition, at, history);
    return { row: { ...transition, applied_at: at }, application };
  }

  return {
    async get(auth: AuthContext, tariffId: number, accountId: string) {
      await tariffAccess.tariff(auth, tariffId, accountId, 'read');
      const transition = await repo.findByPredecessor(db, accountId, tariffId);
      if (!transition) throw notFound('Transition');
      return present(transition);
    },

    async create(auth: AuthContext, tariffId: number, body: CreateTransitionBody) {
      if (body.successor_id === tariffId)
        throw badRequest('successor_id: A tariff cannot be its own successor', 'TRANSITION_CYCLE');
      await tariffAccess.tariff(auth, tariffId, body.account_id, 'write');
      const { row, application } = await db.transaction(async (tx) => {
        await repo.lockChains(tx, body.account_id);
        await tariffAccess.confirm(tx, auth, body.account_id);
        if (!(await lockLiveTariff(tx, body.account_id, tariffId))) throw notFound('Tariff');
        await assertValidSuccessor(tx, body.account_id, tariffId, body.successor_id);
        const inserted = await repo.insert(tx, {
          accountId: body.account_id,
          predecessorId: tariffId,
          successorId: body.successor_id,
          effectiveFrom: body.effective_from,
          notes: body.notes ?? '',
          createdBy: auth.userId,
        });
        if (!inserted) throw conflict('The tariff already has a successor transition', 'TARIFF_HAS_SUCCESSOR');
        await cache.invalidate(tx, cacheKeys.buildingFacts(body.account_id), ...tariffCacheKeys(tariffId));
        return applyIfDue(tx, inserted);
      });
      return present(row, application);
    },

    async update(auth: AuthContext, tariffId: number, body: UpdateTransitionBody) {
      if (body.successor_id === tariffId)
        throw badRequest('successor_id: A tariff cannot be its own successor', 'TRANSITION_CYCLE');
      await tariffAccess.tariff(auth, tariffId, body.account_id, 'write');
      const { row, application } = await db.transaction(async (tx) => {
        await repo.lockChains(tx, body.account_id);
        await tariffAccess.confirm(tx, auth, body.account_id);
        const current = await repo.findByPredecessor(tx, body.account_id, tariffId, true);
        if (!current) throw notFound('Transition');
        if (current.applied_at) throw conflict('The transition has already been applied', 'TRANSITION_APPLIED');
        const successorId = body.successor_id ?? current.successor_id;
        if (body.successor_id !== undefined) await assertValidSuccessor(tx, body.account_id, tariffId, successorId);
        const updated = await repo.update(tx, current.id, body.account_id, {
          successorId,
          effectiveFrom: body.effective_from ?? current.effective_from,
          notes: body.notes ?? current.notes,
        });
        await cache.invalidate(tx, cacheKeys.buildingFacts(body.account_id));
        return applyIfDue(tx, updated);
      });
      return present(row, application);
    },

    async remove(auth: AuthContext, tariffId: number, accountId: string) {
      await tariffAccess.tariff(auth, tariffId, accountId, 'write');
      const deleted = await tariffAccess.transaction(auth, accountId, async (tx) => {
        const removed = await repo.deleteOfPredecessor(tx, accountId, tariffId);
        if (removed) await cache.invalidate(tx, cacheKeys.buildingFacts(accountId), ...tariffCacheKeys(tariffId));
        return removed;
      });
      if (!deleted) throw notFound('Transition');
    },
  };
}

export type TransitionsService = ReturnType<typeof createTransitionsService>;
