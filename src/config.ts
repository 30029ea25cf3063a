import { availableParallelism } from 'node:os';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_POOLED: bool.default(false),
  DATABASE_LISTEN_URL: z.string().url().optional(),
  DATABASE_REPLICA_URL: z.string().url().optional(),
  REPLICA_MAX_LAG_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL_S: z.coerce.number().int().positive().default(3600),
  REFRESH_TOKEN_TTL_S: z.coerce.number().int().positive().default(2592000),
  JWT_PRIVATE_KEY: z.string().includes('PRIVATE KEY').optional(),
  SERVICE_ROLE_KEY: z.string().min(16).optional(),
  SEED_DEMO: bool.optional(),
  TRANSITION_POLL_S: z.coerce.number().positive().default(30),
  AUTH_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(0).default(20),
  CORS_ORIGINS: z.string().optional(),
  REQUEST_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(30),
  STATEMENT_TIMEOUT_S: z.coerce.number().min(0).default(30),
  EXPENSIVE_CONCURRENCY_PER_ORG: z.coerce.number().int().min(1).default(4),
  EXPENSIVE_CONCURRENCY_PER_USER: z.coerce.number().int().min(1).default(8),
  EXPENSIVE_CONCURRENCY_TOTAL: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, Math.floor(availableParallelism() / 2))),
  EXPENSIVE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(250),
  REQUESTS_PER_USER: z.coerce.number().int().min(1).default(2),
  PAGES_AT_ONCE: z.coerce.number().int().min(1).default(2),
  PASSWORD_HASHES_AT_ONCE: z.coerce.number().int().min(1).default(1),
  ORGANIZATIONS_PER_USER_PER_DAY: z.coerce.number().int().min(0).default(20),
  CACHE_STALE_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  KEPT_MONTHS_BYTES: z.coerce.number().int().min(0).default(64_000_000),
});

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** DATABASE_URL is a pooler in transaction mode (PgBouncer): no session state kept across transactions. */
  readonly databasePooled: boolean;
  /** Where the read cache's LISTEN connection goes: PostgreSQL itself, past any pooler (default DATABASE_URL). */
  readonly databaseListenUrl: string | undefined;
  /** A streaming replica of DATABASE_URL's database for the expensive reads (profiles, sums, bills). */
  readonly databaseReplicaUrl: string | undefined;
  /** A replica further behind than this (or not answering for this long) is bypassed: its reads go to the primary. */
  readonly replicaMaxLagMs: number;
  readonly logLevel: string;
  readonly accessTokenTtlS: number;
  readonly refreshTokenTtlS: number;
  readonly jwtPrivateKey: string | undefined;
  readonly serviceRoleKey: string | undefined;
  readonly seedDemo: boolean;
  readonly transitionPollS: number;
  readonly authRateLimitPerMin: number;
  readonly corsOrigins: readonly string[];
  /** Time a client has to send a whole request (head and body); later: 408 and the socket closed. */
  readonly requestTimeoutS: number;
  /** PostgreSQL statement_timeout of the pool's connections, in seconds; 0 = none. */
  readonly statementTimeoutS: number;
  /** Expensive requests (cost, large sums and profiles) one organization may run at once. */
  readonly expensiveConcurrencyPerOrg: number;
  /** Expensive requests one user may run at once, whatever organizations they address. */
  readonly expensiveConcurrencyPerUser: number;
  /** Expensive requests the process runs at once over all users (default half the cores, at least 1); freed slots go to users in turn. */
  readonly expensiveConcurrencyTotal: number;
  /** How long an expensive request past a limit waits for a slot before its 429. */
  readonly expensiveWaitMs: number;
  /** Requests one user has handled at once, but those admitted as expensive work or readings bodies; more wait their turn (request-gate.ts). */
  readonly requestsPerUser: number;
  /** Pages of lists the process makes at once (and as many more for the users who would go first); more wait their turn (request-gate.ts). */
  readonly pagesAtOnce: number;
  /** Passwords the process hashes or checks at once (sign-up, sign-in), client addresses in turn; more wait, then 429. */
  readonly passwordHashesAtOnce: number;
  /** Organizations one user may create in 24 hours (deleted ones count); more: 429. */
  readonly organizationsPerUserPerDay: number;
  /** The oldest data (ms) the read cache serves of another process's writes; the LISTEN heartbeat runs at a quarter of it. */
  readonly cacheStaleMs: number;
  /** What each kind of month of readings kept in memory may take, in bytes (0: none kept). */
  readonly keptMonthsBytes: number;
}

/** Parses the environment once; a bad value throws an error naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`Invalid configuration: ${issue.path.join('.')}: ${issue.message}`);
  }
  const e = parsed.data;
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databasePooled: e.DATABASE_POOLED,
    databaseListenUrl: e.DATABASE_LISTEN_URL,
    databaseReplicaUrl: e.DATABASE_REPLICA_URL,
    replicaMaxLagMs: e.REPLICA_MAX_LAG_MS,
    logLevel: e.LOG_LEVEL,
    accessTokenTtlS: e.ACCESS_TOKEN_TTL_S,
    refreshTokenTtlS: e.REFRESH_TOKEN_TTL_S,
    jwtPrivateKey: e.JWT_PRIVATE_KEY,
    serviceRoleKey: e.SERVICE_ROLE_KEY,
    seedDemo: e.SEED_DEMO ?? e.DATABASE_URL === undefined,
    transitionPollS: e.TRANSITION_POLL_S,
    authRateLimitPerMin: e.AUTH_RATE_LIMIT_PER_MIN,
    corsOrigins: e.CORS_ORIGINS ? e.CORS_ORIGINS.split(',').map((o) => o.trim()) : [],
    requestTimeoutS: e.REQUEST_TIMEOUT_S,
    statementTimeoutS: e.STATEMENT_TIMEOUT_S,
    expensiveConcurrencyPerOrg: e.EXPENSIVE_CONCURRENCY_PER_ORG,
    expensiveConcurrencyPerUser: e.EXPENSIVE_CONCURRENCY_PER_USER,
    expensiveConcurrencyTotal: e.EXPENSIVE_CONCURRENCY_TOTAL,
    expensiveWaitMs: e.EXPENSIVE_WAIT_MS,
    requestsPerUser: e.REQUESTS_PER_USER,
    pagesAtOnce: e.PAGES_AT_ONCE,
    passwordHashesAtOnce: e.PASSWORD_HASHES_AT_ONCE,
    organizationsPerUserPerDay: e.ORGANIZATIONS_PER_USER_PER_DAY,
    cacheStaleMs: e.CACHE_STALE_MS,
    keptMonthsBytes: e.KEPT_MONTHS_BYTES,
  });
}
