import { type AppDeps, buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/types.ts';
import type { App } from '../../src/http/types.ts';
import type { PasswordHashing } from '../../src/modules/auth/passwords.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { checkResponses } from './response-schemas.ts';
import { createTestDatabase } from './test-database.ts';

export const SERVICE_ROLE_KEY = 'test-service-role-key-0123456789';
/** The key pair every test app signs its access tokens with (for tests that forge tokens). */
export const TEST_SIGNING_KEYS = generateSigningKeys();
/** The cheapest Argon2id parameters the library accepts: tests sign many users up and in. */
export const TEST_PASSWORD_HASHING: PasswordHashing = { memoryCost: 8, timeCost: 1, parallelism: 1 };

/** A clock the test can move forward, or stop at an instant; it follows real time otherwise. */
export class TestClock {
  offsetMs = 0;
  private stoppedAt: number | undefined;
  readonly now = () => new Date((this.stoppedAt ?? Date.now()) + this.offsetMs);
  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
  /** Shows `instant` (ISO) from now on, standing still until advanced, set again or resumed. */
  stopAt(instant: string): void {
    this.stoppedAt = Date.parse(instant);
    this.offsetMs = 0;
  }
  /** Follows real time again. */
  resume(): void {
    this.stoppedAt = undefined;
    this.offsetMs = 0;
  }
}

export interface TestApp {
  app: App;
  db: Database;
  /** PostgreSQL connection string of this file's database (undefined on the embedded database). */
  databaseUrl: string | undefined;
  clock: TestClock;
  close(): Promise<void>;
}

/** A loaded machine's embedded database may hold the event loop a second: no shedding in tests (the shedding has a test of its own). */
export const NO_SHEDDING = { SHED_AT_EVENT_LOOP_DELAY_MS: '0' };
/** Tests read the admission gauges of /metrics in loops, hundreds of times a minute on a loaded machine. */
export const GAUGES_READ_FREELY = { METRICS_SCRAPES_PER_MIN: '0' };

/**
 * The real application on a fresh database of its own; env overrides the test defaults, deps the
 * test dependencies (passwordHashing: undefined builds it with the service's own parameters).
 */
export async function startTestApp(
  env: Record<string, string> = {},
  {
    serveFrom,
    ...deps
  }: Partial<Pick<AppDeps, 'passwordHashing' | 'consoleDirectory' | 'swaggerUiDirectory'>> & {
    /** The database the application queries, made from this file's (e.g. one that holds queries); the test's own db stays unwrapped. */
    serveFrom?: (db: Database) => Database;
  } = {},
): Promise<TestApp> {
  const { db, url, drop } = await createTestDatabase(env);
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    // Tests refuse many requests from one address; the refusals' limit has tests of its own.
    REFUSALS_PER_MIN: '0',
    ...NO_SHEDDING,
    ...GAUGES_READ_FREELY,
    SEED_DEMO: 'false',
    SERVICE_ROLE_KEY,
    TRANSITION_POLL_S: '3600',
    // Test users create many organizations; the limit's own tests set it low.
    ORGANIZATIONS_PER_USER_PER_DAY: '1000000',
    // Tests send a few expensive requests at once; the admission's own tests set the limits.
    EXPENSIVE_CONCURRENCY_TOTAL: '16',
    ...env,
  });
  const clock = new TestClock();
  const app = await buildApp({
    config,
    db: serveFrom ? serveFrom(db) : db,
    keys: TEST_SIGNING_KEYS,
    now: clock.now,
    passwordHashing: TEST_PASSWORD_HASHING,
    ...deps,
  });
  checkResponses(app);
  await app.ready();
  return {
    app,
    db,
    databaseUrl: url,
    clock,
    async close() {
      await app.close();
      await drop();
    },
  };
}
