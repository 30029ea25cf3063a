import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openPostgresDatabase } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import type { App } from '../../src/http/types.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { failure } from '../helpers/envelopes.ts';
import { registerUser, type TestUser } from '../helpers/factories.ts';
import { call } from '../helpers/http.ts';
import { checkResponses } from '../helpers/response-schemas.ts';
import { NO_SHEDDING } from '../helpers/test-app.ts';
import { temporaryPostgres } from './temporary-postgres.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
/**
 * Below Linux's range of ports for outgoing connections (32768 to 60999 by default): a port in it
 * may be taken by a client's connection (a test's pool) when the cluster starts or starts again.
 */
const PORT = 20_000 + Math.floor(Math.random() * 10_000);

let cluster: ReturnType<typeof temporaryPostgres>;
let db: Database;
let app: App;
let user: TestUser;

beforeAll(async () => {
  if (!onPostgres) return;
  cluster = temporaryPostgres(PORT);
  cluster.start();
  db = openPostgresDatabase(cluster.url);
  await migrate(db);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    SEED_DEMO: 'false',
    ...NO_SHEDDING,
    DATABASE_URL: cluster.url,
  });
  app = await buildApp({ config, db, keys: generateSigningKeys() });
  checkResponses(app);
  await app.ready();
  user = await registerUser(app);
});

afterAll(async () => {
  if (!onPostgres) return;
  await app.close();
  await db.close();
  cluster.destroy();
});

async function traffic(rounds: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const replies = await Promise.all([
      user.client.get('/api/v1/auth/organizations'),
      user.client.get(`/api/v1/organizations/${user.personalAccountId}`),
      call(app, 'GET', '/readyz'),
    ]);
    statuses.push(...replies.map((r) => r.status));
  }
  return statuses;
}

describe('database outage', () => {
  it.runIf(onPostgres)(
    'answers 503 while the database is down and recovers without a restart',
    async () => {
      expect(new Set(await traffic(3))).toEqual(new Set([200]));

      cluster.stop();
      const during = await traffic(5);
      expect(during.every((s) => s === 503)).toBe(true);
      const ready = await call(app, 'GET', '/readyz');
      expect(ready.body).toEqual(failure('Service unavailable', 'The database is unreachable'));
      const failing = await user.client.get('/api/v1/auth/organizations');
      expect(failing.body).toEqual(failure('Service unavailable', 'The database is unavailable'));
      expect(failing.headers['retry-after']).toBe('5');

      cluster.start();
      let recovered = false;
      for (let i = 0; i < 50 && !recovered; i++) {
        recovered = (await call(app, 'GET', '/readyz')).status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(recovered).toBe(true);
      expect(new Set(await traffic(3))).toEqual(new Set([200]));
    },
    60_000,
  );
});
