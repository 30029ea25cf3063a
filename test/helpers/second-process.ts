import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { databaseEnv } from './database-url.ts';
import { type Client, clientFor } from './http.ts';

/**
 * A second instance of the service on the same PostgreSQL database, as another process would be
 * (its own pool, read cache and LISTEN connection), with a client signed in as user; env overrides
 * the settings, its log lines go to logStream when given.
 */
export async function secondProcess(
  databaseUrl: string,
  user: { email: string; password: string },
  env: Record<string, string> = {},
  logStream?: NodeJS.WritableStream,
) {
  const config = loadConfig({ LOG_LEVEL: 'silent', ...databaseEnv(databaseUrl), AUTH_RATE_LIMIT_PER_MIN: '0', ...env });
  const db = await openDatabase(config);
  const app = await buildApp({ config, db, keys: generateSigningKeys(), logStream });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    payload: { email: user.email, password: user.password },
  });
  const client: Client = clientFor(app, login.json().data.access_token);
  return {
    app,
    client,
    async close() {
      await app.close();
      await db.close();
    },
  };
}
