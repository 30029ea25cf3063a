import type { FastifyBaseLogger } from 'fastify';
import { type CacheInvalidation, cacheKeys } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import type { TariffHistoryRecorder } from '../tariff-history/tariff-history.model.ts';
import { applyTransition } from './transition-application.ts';
import { transitionsRepository as repo } from './transitions.repository.ts';

interface SchedulerDeps {
  db: Database;
  history: TariffHistoryRecorder;
  cache: CacheInvalidation;
  now: () => Date;
  pollSeconds: number;
  log: FastifyBaseLogger;
  onRun?: (outcome: 'ok' | 'error') => void;
}

const BATCH = 50;

/**
 * Applies due transitions, on start and every pollSeconds. Each one is applied exactly once even
 * with several processes on one database: the row is locked with SKIP LOCKED and marked applied in
 * the same transaction, so a second process either skips it or no longer sees it as due. A process
 * that was down catches up on start.
 */
export function createTransitionScheduler({ db, history, cache, now, pollSeconds, log, onRun }: SchedulerDeps) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;

  async function applyDueBatch(): Promise<number> {
    return db.transaction(async (tx) => {
      const at = now();
      const due = await repo.lockDue(tx, at, BATCH);
      if (due.length > 0) await cache.invalidate(tx, ...due.map((t) => cacheKeys.buildingFacts(t.account_id)));
      for (const transition of due) {
        const application = await applyTransition(tx, transition, at, history);
        log.info({ transition_id: transition.id, ...application }, 'tariff transition applied');
      }
      return due.length;
    });
  }

  async function runOnce(): Promise<number> {
    let total = 0;
    let applied: number;
    do {
      applied = await applyDueBatch();
      total += applied;
    } while (applied === BATCH);
    return total;
  }

  function tick() {
    running ??= runOnce()
      .then((count) => {
        onRun?.('ok');
        return count;
      })
      .catch((error: unknown) => {
        onRun?.('error');
        log.error({ err: error }, 'tariff transition scheduler run failed');
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    /** One run now (waits for a run already in progress). */
    runOnce: tick,
    start() {
      void tick();
      timer = setInterval(() => void tick(), pollSeconds * 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
