import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { migrate } from '../../src/db/migrate.ts';
import { openDatabase } from '../../src/db/open.ts';
import { openPostgresDatabase } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import type { App } from '../../src/http/types.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { databaseEnv, directUrl } from '../helpers/database-url.ts';
import { failure } from '../helpers/envelopes.ts';
import { registerUser, type TestUser } from '../helpers/factories.ts';
import { checkResponses } from '../helpers/response-schemas.ts';
import { NO_SHEDDING } from '../helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

let database: TestDatabase;
beforeAll(async () => {
  if (onPostgres) database = await createTestDatabase();
});
afterAll(async () => database?.drop());

/** The application on a database of the caller's choosing (a pool other than the test default). */
async function appOn(db: Database, env: Record<string, string> = {}): Promise<{ app: App; user: TestUser }> {
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    SEED_DEMO: 'false',
    ...NO_SHEDDING,
    ...databaseEnv(database.url!),
    ...env,
  });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  checkResponses(app);
  await app.ready();
  return { app, user: await registerUser(app) };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('a pool with no free connection in time', () => {
  it.runIf(onPostgres)('answers 503 with Retry-After, and serves again once a connection is free', async () => {
    const db = openPostgresDatabase(database.url!, {
      max: 1,
      connectionTimeoutMs: 100,
      pooled: process.env.DATABASE_POOLED === 'true',
    });
    const { app, user } = await appOn(db);
    const release = deferred();
    const taken = deferred();
    const holder = db.transaction(async () => {
      taken.resolve();
      await release.promise;
    });
    try {
      await taken.promise;
      const busy = await user.client.get('/api/v1/building_blocks', { account_id: user.personalAccountId });
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.body).toEqual(
        failure('Service unavailable', 'No database connection became free in time; retry shortly'),
      );

      release.resolve();
      await holder;
      const after = await user.client.get('/api/v1/building_blocks', { account_id: user.personalAccountId });
      expect(after.status).toBe(200);
    } finally {
      release.resolve();
      await holder;
      await app.close();
      await db.close();
    }
  });
});

describe('a statement past its timeout', () => {
  it.runIf(onPostgres)('answers 503 with Retry-After (STATEMENT_TIMEOUT_S on the pool)', async () => {
    const config = loadConfig({ ...databaseEnv(database.url!), STATEMENT_TIMEOUT_S: '0.2' });
    const db = await openDatabase(config);
    const { app, user } = await appOn(db);
    const locker = new pg.Client({ connectionString: database.url });
    await locker.connect();
    try {
      // The list waits for the lock until its statement timeout cancels it.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE building_blocks IN ACCESS EXCLUSIVE MODE');
      const slow = await user.client.get('/api/v1/building_blocks', { account_id: user.personalAccountId });
      expect(slow.status).toBe(503);
      expect(slow.headers['retry-after']).toBe('5');
      expect(slow.body).toEqual(
        failure('Service unavailable', 'A database statement ran past its time limit; retry later'),
      );

      await locker.query('ROLLBACK');
      const after = await user.client.get('/api/v1/building_blocks', { account_id: user.personalAccountId });
      expect(after.status).toBe(200);
    } finally {
      await locker.query('ROLLBACK');
      await locker.end();
      await app.close();
      await db.close();
    }
  });
});

describe('migrations', () => {
  it.runIf(onPostgres)('are not held to the statement timeout (they wait for another process migrating)', async () => {
    const db = await openDatabase(loadConfig({ ...databaseEnv(database.url!), STATEMENT_TIMEOUT_S: '0.2' }));
    // A session's lock: on PostgreSQL itself, past any pooler.
    const other = new pg.Client({ connectionString: directUrl(database.url!) });
    await other.connect();
    try {
      // The lock migrate() takes, held by "another process" for longer than the statement timeout.
      await other.query('SELECT pg_advisory_lock(727001)');
      const migrating = migrate(db);
      await new Promise((resolve) => setTimeout(resolve, 600));
      await other.query('SELECT pg_advisory_unlock(727001)');
      await expect(migrating).resolves.toEqual([]);
    } finally {
      await other.end();
      await db.close();
    }
  });
});
