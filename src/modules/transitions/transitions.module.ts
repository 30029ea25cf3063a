import type { ReadCache } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import type { AccessGuard } from '../../http/access-guard.ts';
import type { App } from '../../http/types.ts';
import { createTariffAccess } from '../tariffs/tariff-access.ts';
import { createTransitionScheduler } from './transition-scheduler.ts';
import { registerTransitionRoutes } from './transitions.routes.ts';
import { createTransitionsService } from './transitions.service.ts';

export interface TransitionModuleDeps {
  db: Database;
  guard: AccessGuard;
  cache: ReadCache;
  now: () => Date;
  pollSeconds: number;
  onSchedulerRun: (outcome: 'ok' | 'error') => void;
}

/** Transition routes, and the scheduler that applies due transitions while the app runs. */
export function registerTransitionModule(app: App, deps: TransitionModuleDeps): void {
  const tariffAccess = createTariffAccess(deps.db, deps.guard, deps.cache);
  registerTransitionRoutes(app, createTransitionsService({ db: deps.db, tariffAccess, now: deps.now }));
  const scheduler = createTransitionScheduler({
    db: deps.db,
    now: deps.now,
    pollSeconds: deps.pollSeconds,
    log: app.log,
    onRun: deps.onSchedulerRun,
  });
  app.decorate('transitionScheduler', scheduler);
  app.addHook('onReady', async () => scheduler.start());
  app.addHook('onClose', async () => scheduler.stop());
}

declare module 'fastify' {
  interface FastifyInstance {
    transitionScheduler: ReturnType<typeof createTransitionScheduler>;
  }
}
