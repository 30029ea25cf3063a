import type { Config } from './config.ts';
import { createReadCache } from './db/read-cache.ts';
import type { Database } from './db/types.ts';
import { createVersionedResults } from './db/versioned-results.ts';
import { createAccessGuard } from './http/access-guard.ts';
import { createAdmission } from './http/admission.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { createHttpApp } from './http/http-app.ts';
import { createKeptAnswers } from './http/kept-answers.ts';
import { createMetrics, registerMetrics } from './http/metrics.ts';
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
  // One admission for the process (admission.ts, fair-scheduler.ts): a deadline per request, a
  // user's requests a few at a time, and one fair scheduler for all expensive work.
  const admission = createAdmission({
    slots: config.expensiveConcurrencyTotal,
    perUser: config.expensiveConcurrencyPerUser,
    perOrganization: config.expensiveConcurrencyPerOrg,
    requestsPerUser: config.requestsPerUser,
    signIns: config.signInConcurrency,
    deadlineS: config.requestDeadlineS,
  });
  const app = await createHttpApp({
    logLevel: config.logLevel,
    requestTimeoutS: config.requestTimeoutS,
    corsOrigins: config.corsOrigins,
    trustProxy: config.trustProxy,
    logStream,
    swaggerUiDirectory,
    admission,
    refusalsPerMin: config.refusalsPerMin,
    shedAtEventLoopDelayMs: config.shedAtEventLoopDelayMs,
  });

  // Collaborators that several modules share, each built once.
  const cache = createReadCache(db, { staleMs: config.cacheStaleMs, log: app.log });
  const metrics = createMetrics(db, cache);
  admission.registerGauges(metrics.registry);
  const tokens = createAccessTokens(keys, config.accessTokenTtlS, now);
  const gatewayKeys = createGatewayKeys(db);
  registerAuthentication(app, tokens, config.serviceRoleKey, gatewayKeys);
  admission.registerGate(app);
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.stop());
  const guard = createAccessGuard(db, cache, gatewayKeys);
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
  registerMetrics(app, metrics, config.metricsScrapesPerMin);
  registerOperationsModule(app, { samples: () => demoSamples(db) });
  const auth = registerAuthModule(app, {
    db,
    tokens,
    refreshTokenTtlS: config.refreshTokenTtlS,
    now,
    rateLimitPerMin: config.authRateLimitPerMin,
    corsOrigins: config.corsOrigins,
    passwordHashing,
    admission,
  });
  if (config.serviceRoleKey) registerAdminModule(app, { db, cache, users: auth });
  registerOrganizationsModule(app, { db, guard, cache, perUserPerDay: config.organizationsPerUserPerDay });
  const readings = registerTimeseriesModule(
    app,
    {
      db,
      guard,
      admission,
      cache,
      profiles,
      sums,
      months,
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
