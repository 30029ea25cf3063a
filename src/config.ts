import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import type { TrustProxy } from './http/http-app.ts';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** An address, or a CIDR block (an address and its prefix length). */
function addressOrCidr(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const trustProxy = z
  .string()
  .transform((text, ctx): TrustProxy => {
    if (text === 'true' || text === 'false') return text === 'true';
    if (/^\d+$/.test(text) && Number(text) >= 1) return Number(text);
    const list = text.split(',').map((item) => item.trim());
    if (list.every(addressOrCidr)) return list;
    ctx.addIssue({
      code: 'custom',
      message: 'Must be true, false, a hop count of 1 or more, or comma-separated addresses and CIDRs',
    });
    return z.NEVER;
  })
  .default(false);

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
  TRUST_PROXY: trustProxy,
  REQUEST_TIMEOUT_S: z.coerce.number().int().min(1).max(3600).default(30),
  STATEMENT_TIMEOUT_S: z.coerce.number().min(0).default(30),
  EXPENSIVE_CONCURRENCY_PER_ORG: z.coerce.number().int().min(1).default(4),
  EXPENSIVE_CONCURRENCY_PER_USER: z.coerce.number().int().min(1).default(8),
  EXPENSIVE_CONCURRENCY_TOTAL: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(4, 2 * availableParallelism())),
  REQUEST_DEADLINE_S: z.coerce.number().min(1).max(3600).default(30),
  REQUESTS_PER_USER: z.coerce.number().int().min(1).default(4),
  SIGN_IN_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, Math.floor(availableParallelism() / 2))),
  REFUSALS_PER_MIN: z.coerce.number().int().min(0).default(300),
  METRICS_SCRAPES_PER_MIN: z.coerce.number().int().min(0).default(120),
  SHED_AT_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  ORGANIZATIONS_PER_USER_PER_DAY: z.coerce.number().int().min(0).default(20),
  CACHE_STALE_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
  KEPT_MONTHS_BYTES: z.coerce.number().int().min(0).default(64_000_000),
  MQTT_URL: z.string().url().optional(),
  MQTT_CLIENT_ID: z.string().min(1).max(23).default('ums-readings'),
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
  /**
   * The proxies whose X-Forwarded-* headers are believed (off by default): every one (true), as
   * many hops from the service, or those of these addresses and CIDRs. The client address of
   * every per-client limit is then the forwarded one.
   */
  readonly trustProxy: TrustProxy;
  /** Time a client has to send a whole request (head and body); later: 408 and the socket closed. */
  readonly requestTimeoutS: number;
  /** PostgreSQL statement_timeout of the pool's connections, in seconds; 0 = none. */
  readonly statementTimeoutS: number;
  /** Expensive requests (cost, large sums and profiles) one organization may run at once. */
  readonly expensiveConcurrencyPerOrg: number;
  /** Expensive requests one user may run at once, whatever organizations they address. */
  readonly expensiveConcurrencyPerUser: number;
  /** Work the process runs at once (default twice the cores, at least 4), and as many more for quiet organizations (fair-scheduler.ts). */
  readonly expensiveConcurrencyTotal: number;
  /** How long a request may wait and work in all (admission.ts); past it, 503 with Retry-After. */
  readonly requestDeadlineS: number;
  /** Requests one user has in progress at once; more wait their turn, unread (admission.ts). */
  readonly requestsPerUser: number;
  /** Password hashes and checks run at once (default half the cores, at least 1), client addresses in turn (admission.ts). */
  readonly signInConcurrency: number;
  /** Refusals (401, 404) a client address may have a minute; past them 429 (0: no limit). */
  readonly refusalsPerMin: number;
  /** Scrapes of /metrics a client address may make a minute; past them 429 (0: no limit). */
  readonly metricsScrapesPerMin: number;
  /** The event-loop lag (ms) past which the process sheds every request with 503 (@fastify/under-pressure; 0: never). */
  readonly shedAtEventLoopDelayMs: number;
  /** Organizations one user may create in 24 hours (deleted ones count); more: 429. */
  readonly organizationsPerUserPerDay: number;
  /** The oldest data (ms) the read cache serves of another process's writes; the LISTEN heartbeat runs at a quarter of it. */
  readonly cacheStaleMs: number;
  /** What each kind of month of readings kept in memory may take, in bytes (0: none kept). */
  readonly keptMonthsBytes: number;
  /** The MQTT broker gateways publish readings to (mqtt://host:1883); none: nothing listens. */
  readonly mqttUrl: string | undefined;
  /** The service's client id at the broker: fixed, so that its persistent session keeps the messages sent while it was away. */
  readonly mqttClientId: string;
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
    trustProxy: e.TRUST_PROXY,
    requestTimeoutS: e.REQUEST_TIMEOUT_S,
    statementTimeoutS: e.STATEMENT_TIMEOUT_S,
    expensiveConcurrencyPerOrg: e.EXPENSIVE_CONCURRENCY_PER_ORG,
    expensiveConcurrencyPerUser: e.EXPENSIVE_CONCURRENCY_PER_USER,
    expensiveConcurrencyTotal: e.EXPENSIVE_CONCURRENCY_TOTAL,
    requestDeadlineS: e.REQUEST_DEADLINE_S,
    requestsPerUser: e.REQUESTS_PER_USER,
    signInConcurrency: e.SIGN_IN_CONCURRENCY,
    refusalsPerMin: e.REFUSALS_PER_MIN,
    metricsScrapesPerMin: e.METRICS_SCRAPES_PER_MIN,
    shedAtEventLoopDelayMs: e.SHED_AT_EVENT_LOOP_DELAY_MS,
    organizationsPerUserPerDay: e.ORGANIZATIONS_PER_USER_PER_DAY,
    cacheStaleMs: e.CACHE_STALE_MS,
    keptMonthsBytes: e.KEPT_MONTHS_BYTES,
    mqttUrl: e.MQTT_URL,
    mqttClientId: e.MQTT_CLIENT_ID,
  });
}
