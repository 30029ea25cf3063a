import type { Database } from '../../db/types.ts';
import { failure, ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { publicJwks, type SigningKeys } from '../auth/signing-keys.ts';

const config = { public: true };
const schema = { hide: true };

/** Liveness, readiness (the database answers) and the public key set. */
export function registerSystemRoutes(app: App, db: Pick<Database, 'ping'>, keys: SigningKeys): void {
  app.get('/healthz', { config, schema }, async () => ok({ status: 'ok' }));
  app.get('/readyz', { config, schema }, async (_req, reply) => {
    try {
      await db.ping();
      return ok({ status: 'ready' });
    } catch {
      return reply.code(503).send(failure('Service unavailable', 'The database is unreachable'));
    }
  });
  app.get('/.well-known/jwks.json', { config, schema }, async () => publicJwks(keys));
}
