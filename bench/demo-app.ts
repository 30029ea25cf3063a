import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Database } from '../src/db/types.ts';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../src/seed/demo.ts';

/** The service on a real socket over a database holding the demo, and the demo user's access token. */
export async function serveDemo(db: Database, databaseUrl: string) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  return { app, base, token };
}
