import type { App } from '../../http/types.ts';
import { createTransitionScheduler } from './transition-scheduler.ts';
import { registerTransitionRoutes } from './transitions.routes.ts';
import { createTransitionsService, type TransitionsDeps } from './transitions.service.ts';

interface TransitionsModuleDeps extends TransitionsDeps {
  /** How often the scheduler looks for due transitions. */
  pollSeconds: number;
  onSchedulerRun: (outcome: 'ok' | 'error') => void;
}

/** Transition routes, and the scheduler that applies due transitions while the app runs. */
export function registerTransitionsModule(
  app: App,
  { pollSeconds, onSchedulerRun, ...deps }: TransitionsModuleDeps,
): void {
  registerTransitionRoutes(app, createTransitionsService(deps));
  const scheduler = createTransitionScheduler({
    db: deps.db,
    history: deps.history,
    cache: deps.cache,
    now: deps.now,
    pollSeconds,
    log: app.log,
    onRun: onSchedulerRun,
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
