import type { Config } from './config.ts';
import { createReadCache } from './db/read-cache.ts';
import type { Database } from './db/types.ts';
import { createVersionedResults } from './db/versioned-results.ts';
import { createAccessGuard } from './http/access-guard.ts';
import { createAdmission, registerAdmissionGauge } from './http/admission.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { createCpuTurns } from './http/cpu-turns.ts';
import { createHttpApp } from './http/http-app.ts';
import { createKeptAnswers } from './http/kept-answers.ts';
import { createMetrics, registerMetrics } from './http/metrics.ts';
import { createRefusalTurns } from './http/refusal-turns.ts';
import { REQUEST_WAIT_SHARE, registerRequestGate } from './http/request-gate.ts';
import type { JsonText } from './http/serializer.ts';
import type { App } from './http/types.ts';
import { registerAdminModule } from './modules/admin/admin.module.ts';
import { createAccessTokens } from './modules/auth/access-tokens.ts';
import { registerAuthModule } from './modules/auth/auth.module.ts';
import type { PasswordHashing } from './modules/auth/passwords.ts';
import type { SigningKeys } from './modules/auth/signing-keys.ts';
import { registerBuildingBlocksModule } from './modules/building-blocks/building-blocks.module.ts';
import { registerConsoleModule } from './modules/console/console.module.ts';
import { registerCostModule } from './modules/cost/cost.module.ts';
import { createKeptBills } from './modules/cost/kept-bills.ts';
import { createKeptMeterMonths } from './modules/cost/meter-hours.ts';
import { registerDashboardConfigModule } from './modules/dashboard-config/dashboard-config.module.ts';
import { createGatewayKeys, registerGatewaysModule } from './modules/gateways/gateways.module.ts';
import { registerInvoicesModule } from './modules/invoices/invoices.module.ts';
import { registerMetersModule } from './modules/meters/meters.module.ts';
import { registerOperationsModule } from './modules/operations/operations.module.ts';
import { registerOrganizationsModule } from './modules/organizations/organizations.module.ts';
import { createReferenceReader, registerReferenceModule } from './modules/reference/reference.module.ts';
import { registerSystemModule } from './modules/system/system.module.ts';
import { registerTariffComparisonModule } from './modules/tariff-comparison/tariff-comparison.module.ts';
import {
  createTariffHistoryRecorder,
  registerTariffHistoryModule,
} from './modules/tariff-history/tariff-history.module.ts';
import { createTariffItemsReader, registerTariffItemsModule } from './modules/tariff-items/tariff-items.module.ts';
import { createTariffAccess } from './modules/tariffs/tariff-access.ts';
import { createTariffDetails } from './modules/tariffs/tariff-details.ts';
import { registerTariffsModule } from './modules/tariffs/tariffs.module.ts';
import { registerTenantRecoveryModule } from './modules/tenant-recovery/tenant-recovery.module.ts';
import {
  LARGE_BODIES_PER_USER,
  LARGE_BODIES_TOTAL,
  LARGE_BODY_WAIT_SHARE,
} from './modules/timeseries/ingest-body/ingest-parser.ts';
import type { MonthOfReadings } from './modules/timeseries/meter-months.ts';
import { registerTimeseriesModule } from './modules/timeseries/timeseries.module.ts';
import type { EnergyTotals } from './modules/timeseries/totals.ts';
import { registerTransitionsModule } from './modules/transitions/transitions.module.ts';
import { demoSamples } from './seed/demo-samples.ts';

/**
 * How much memory kept profiles take at most: 144 MB, some 430 months of one meter in 30-minute
 * buckets. Each counts 2.25 times its JSON (147 kB, ASCII): the text, its bytes as sent, and their
 * brotli and gzip forms (about an eighth each, docs/decisions.md).
 */
const PROFILES_KEPT_BYTES = 144_000_000;
const KEPT_BYTES_PER_JSON_CHARACTER = 2.25;
/** How many energy-sums of one meter over a range are kept at most (a few hundred bytes each). */
const ENERGY_SUMS_KEPT = 20_000;

/**
 * Stores of ingests of up to 2,000 readings at once in the process: fewer than half the pool's ten
 * connections, so that a flood of small readings bodies leaves the rest to everyone else's queries
 * (docs/decisions.md, "Small stores a few at a time").
 */
const SMALL_INGEST_STORES_AT_ONCE = 4;

export interface AppDeps {
  config: Config;
  db: Database;
  keys: SigningKeys;
  /** The clock: injectable so tests can move time (token expiry, transitions). */
  now?: () => Date;
  /** Where JSON log lines go (standard output when absent). */
  logStream?: NodeJS.WritableStream;
  /** Argon2id parameters of password hashes (OWASP's when absent; tests make them cheap). */
  passwordHashing?: PasswordHashing;
  /** The built web console's directory (dist/console when absent). */
  consoleDirectory?: string;
  /** Swagger UI's assets as the build compressed them (dist/swagger-ui when absent). */
  swaggerUiDirectory?: string;
}

/** Large JSON bodies (over 64 KiB) read and parsed at once in the process: each holds the event loop milliseconds. */
const LARGE_BODIES_AT_ONCE = 1;
/**
 * Writes (gated requests that change something) run at once in the process: each holds one of the
 * pool's ten connections for its transaction; fewer than half of them, so that a flood of writes
 * leaves the rest to everyone else's queries (docs/decisions.md, "Writes a few at a time").
 */
const WRITES_AT_ONCE = 4;

/** Builds the whole HTTP application without listening: the server and the tests share it. */
export async function buildApp({
  config,
  db,
  keys,
  now = () => new Date(),
  logStream,
  passwordHashing,
  consoleDirectory,
  swaggerUiDirectory,
}: AppDeps): Promise<App> {
  /** Work done `total` at a time in the process, users (or client addresses) in turn; past it a request waits up to half its timeout, then 429. */
  const inTurns = (total: number, what: string) =>
    createAdmission({
      perOrganization: Number.POSITIVE_INFINITY,
      perUser: Number.POSITIVE_INFINITY,
      total,
      now: () => now().getTime(),
      waitMs: config.requestTimeoutS * 1000 * REQUEST_WAIT_SHARE,
      what,
    });
  // Refusals of requests without a valid token, and 404s of routes that do not exist: one at a
  // time, client addresses in turn.
  const refusals = inTurns(1, 'refused requests');
  const refusalTurn = createRefusalTurns(refusals);
  const app = await createHttpApp({
    logLevel: config.logLevel,
    requestTimeoutS: config.requestTimeoutS,
    corsOrigins: config.corsOrigins,
    logStream,
    swaggerUiDirectory,
    refusalTurn,
  });

  // Collaborators that several modules share, each built once.
  const cache = createReadCache(db, { staleMs: config.cacheStaleMs, log: app.log });
  const metrics = createMetrics(db, cache);
  const tokens = createAccessTokens(keys, config.accessTokenTtlS, now);
  const gatewayKeys = createGatewayKeys(db);
  registerAuthentication(app, tokens, config.serviceRoleKey, refusalTurn, gatewayKeys);
  // A user's requests, but those with admissions of their own below, a few at a time.
  const requests = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: config.requestsPerUser,
    now: () => now().getTime(),
    waitMs: config.requestTimeoutS * 1000 * REQUEST_WAIT_SHARE,
    what: 'requests',
  });
  const pages = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: Number.POSITIVE_INFINITY,
    total: config.pagesAtOnce,
    idleUserReserve: config.pagesAtOnce,
    leastUsedFirst: true,
    now: () => now().getTime(),
    waitMs: config.requestTimeoutS * 1000 * REQUEST_WAIT_SHARE,
    what: 'requests',
  });
  const largeBodies = inTurns(LARGE_BODIES_AT_ONCE, 'large bodies');
  const writes = inTurns(WRITES_AT_ONCE, 'writes');
  registerRequestGate(app, { requests, pages, largeBodies, writes });
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.stop());
  const guard = createAccessGuard(db, cache, gatewayKeys);
  const admission = createAdmission({
    perOrganization: config.expensiveConcurrencyPerOrg,
    perUser: config.expensiveConcurrencyPerUser,
    total: config.expensiveConcurrencyTotal,
    idleUserReserve: config.expensiveConcurrencyTotal,
    now: () => now().getTime(),
    waitMs: config.expensiveWaitMs,
  });
  registerAdmissionGauge(admission, metrics.registry);
  // Profiles and sums below the expensive sizes, when computed: in turn among users, as expensive
  // work is, but never refused before the request's own timeout.
  const computedReads = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: Number.POSITIVE_INFINITY,
    total: config.expensiveConcurrencyTotal,
    idleUserReserve: config.expensiveConcurrencyTotal,
    now: () => now().getTime(),
    waitMs: config.requestTimeoutS * 1000,
  });
  registerAdmissionGauge(computedReads, metrics.registry, 'computed');
  // Small readings bodies take their user's request slots; large ones: a few at once on their way in
  // (read, parsed, stored), a user's newest waiting body read first; parsed in a worker thread one at
  // a time and stored one at a time, users taking turns for each.
  const ingestBodies = {
    small: requests,
    receiving: createAdmission({
      perOrganization: Number.POSITIVE_INFINITY,
      perUser: LARGE_BODIES_PER_USER,
      total: LARGE_BODIES_TOTAL,
      now: () => now().getTime(),
      waitMs: config.requestTimeoutS * 1000 * LARGE_BODY_WAIT_SHARE,
      newestFirstPerUser: true,
    }),
    parsing: createAdmission({
      perOrganization: 1,
      perUser: 1,
      total: 1,
      now: () => now().getTime(),
      waitMs: config.requestTimeoutS * 1000,
    }),
  };
  const ingestStores = createAdmission({
    perOrganization: 1,
    perUser: 1,
    total: 1,
    now: () => now().getTime(),
    waitMs: config.requestTimeoutS * 1000,
    maxRestMs: Number.POSITIVE_INFINITY,
  });
  registerAdmissionGauge(ingestBodies.receiving, metrics.registry, 'ingestBodies');
  registerAdmissionGauge(ingestBodies.parsing, metrics.registry, 'ingestParsing');
  // Smaller batches' stores: a few at once in the process, users in turn, so that they leave most of
  // the pool's connections to everything else.
  const smallIngestStores = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: Number.POSITIVE_INFINITY,
    total: SMALL_INGEST_STORES_AT_ONCE,
    now: () => now().getTime(),
    waitMs: config.requestTimeoutS * 1000,
  });
  registerAdmissionGauge(ingestStores, metrics.registry, 'ingestStores');
  registerAdmissionGauge(smallIngestStores, metrics.registry, 'smallIngestStores');
  registerAdmissionGauge(requests, metrics.registry, 'requests');
  registerAdmissionGauge(pages, metrics.registry, 'pages');
  registerAdmissionGauge(refusals, metrics.registry, 'refusals');
  registerAdmissionGauge(largeBodies, metrics.registry, 'largeBodies');
  registerAdmissionGauge(writes, metrics.registry, 'writes');
  // Passwords hashed and checked a few at a time, client addresses in turn.
  const passwordHashes = inTurns(config.passwordHashesAtOnce, 'sign-ins');
  registerAdmissionGauge(passwordHashes, metrics.registry, 'passwordHashes');
  const cpuTurns = createCpuTurns();
  const tariffHistory = createTariffHistoryRecorder();
  const profiles = createVersionedResults(
    PROFILES_KEPT_BYTES,
    (profile: JsonText) => Math.ceil(profile.size * KEPT_BYTES_PER_JSON_CHARACTER),
    { keepOnSecondRequest: { keysRemembered: 10_000 } },
  );
  const sums = createVersionedResults<EnergyTotals | null>(ENERGY_SUMS_KEPT, () => 1);
  const months = createVersionedResults(config.keptMonthsBytes, (month: MonthOfReadings) => month.bytes);
  const keptAnswers = createKeptAnswers((encoding) => metrics.keptBodies.inc({ encoding }));

  registerSystemModule(app, { db, keys });
  // Scrapes of /metrics (no token): one at a time, client addresses in turn.
  const scrapes = inTurns(1, 'metrics scrapes');
  registerAdmissionGauge(scrapes, metrics.registry, 'scrapes');
  registerMetrics(app, metrics, scrapes);
  registerOperationsModule(app, { baseUrl: `http://${config.host}:${config.port}`, samples: () => demoSamples(db) });
  const auth = registerAuthModule(app, {
    db,
    tokens,
    refreshTokenTtlS: config.refreshTokenTtlS,
    now,
    rateLimitPerMin: config.authRateLimitPerMin,
    passwordHashing,
    passwordHashes,
  });
  if (config.serviceRoleKey) registerAdminModule(app, { db, cache, users: auth });
  registerOrganizationsModule(app, { db, guard, cache, perUserPerDay: config.organizationsPerUserPerDay });
  const readings = registerTimeseriesModule(
    app,
    {
      db,
      guard,
      admission,
      computedReads,
      cache,
      profiles,
      sums,
      months,
      turns: cpuTurns,
      ingestStores,
      smallIngestStores,
      ingestBodies,
    },
    keptAnswers,
  );
  registerReferenceModule(app, { db });
  const reference = createReferenceReader();
  const tariffItems = createTariffItemsReader();
  const details = createTariffDetails(tariffItems, reference);
  const tariffAccess = createTariffAccess(db, guard, cache, details);
  registerTariffsModule(app, { db, tariffAccess, details, items: tariffItems, reference });
  registerTariffItemsModule(app, { db, tariffAccess });
  const cost = registerCostModule(app, {
    db,
    cache,
    guard,
    tariffAccess,
    admission,
    bills: createKeptBills(() => metrics.billsPriced.inc()),
    months: createKeptMeterMonths(config.keptMonthsBytes),
    turns: cpuTurns,
  });
  registerTariffComparisonModule(app, { guard, admission, cost, tariffs: tariffAccess });
  registerTenantRecoveryModule(app, { db, guard, admission, cost });
  registerTransitionsModule(app, {
    db,
    tariffAccess,
    history: tariffHistory,
    cache,
    now,
    pollSeconds: config.transitionPollS,
    onSchedulerRun: (outcome) => metrics.schedulerRuns.inc({ outcome }),
  });
  const blocks = registerBuildingBlocksModule(app, { db, guard, cache });
  registerInvoicesModule(app, { db, guard, admission, blocks, cost });
  const meters = registerMetersModule(app, {
    db,
    cache,
    guard,
    blocks,
    tariffs: tariffAccess,
    history: tariffHistory,
    now,
  });
  const configs = registerDashboardConfigModule(app, {
    db,
    guard,
    blocks,
    meters,
    tariffs: tariffAccess,
    history: tariffHistory,
    cache,
    now,
  });
  registerTariffHistoryModule(app, { db, meters, configs });
  registerGatewaysModule(app, {
    db,
    guard,
    meters,
    keys: gatewayKeys,
    readings,
    mqtt: { url: config.mqttUrl, clientId: config.mqttClientId },
  });
  await registerConsoleModule(app, { directory: consoleDirectory });
  return app;
}
