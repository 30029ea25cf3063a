import type { Database } from '../../db/types.ts';
import { failure, ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { publicJwks, type SigningKeys } from '../auth/signing-keys.ts';
import { systemResponses } from './system.responses.ts';

const config = { public: true };
const hide = true;

/** Liveness, readiness (the database answers; the replica's state, when one is set) and the public key set. */
export function registerSystemRoutes(app: App, db: Pick<Database, 'ping' | 'replica'>, keys: SigningKeys): void {
  app.get('/healthz', { config, schema: { hide, response: systemResponses.health } }, async () => ok({ status: 'ok' }));
  app.get('/readyz', { config, schema: { hide, response: systemResponses.readiness } }, async (_req, reply) => {
    try {
      await db.ping();
      const replica = db.replica();
      if (!replica) return ok({ status: 'ready' });
      const { inUse, lagMs, bypassed } = replica;
      return ok({ status: 'ready', replica: { in_use: inUse, lag_ms: lagMs, ...(bypassed ? { bypassed } : {}) } });
    } catch {
      return reply
        .code(503)
        .send(failure('DATABASE_UNAVAILABLE', 'Service unavailable', 'The database is unreachable'));
    }
  });
  app.get('/.well-known/jwks.json', { config, schema: { hide } }, async () => publicJwks(keys));
}
