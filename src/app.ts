import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import type { Config } from './config.ts';
import { createReadCache } from './db/read-cache.ts';
import type { Database } from './db/types.ts';
import { createAccessGuard } from './http/access-guard.ts';
import { registerAuthentication } from './http/authenticate.ts';
import { registerCors } from './http/cors.ts';
import { registerErrorHandler } from './http/error-handler.ts';
import { createMetrics, registerMetrics } from './http/metrics.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerReplySerializer } from './http/serializer.ts';
import { registerOpenApi } from './http/openapi.ts';
import { registerTransportHooks, transportOptions } from './http/transport-errors.ts';
import type { App } from './http/types.ts';
import { zodValidatorCompiler } from './http/validation.ts';
import { registerAdminRoutes } from './modules/admin/admin.routes.ts';
import { createAdminService } from './modules/admin/admin.service.ts';
import { createAccessTokens } from './modules/auth/access-tokens.ts';
import { registerAuthRoutes } from './modules/auth/auth.routes.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { registerBuildingRoutes } from './modules/building-blocks/building-routes.ts';
import type { PasswordHashing } from './modules/auth/passwords.ts';
import type { SigningKeys } from './modules/auth/signing-keys.ts';
import { registerCostRoutes } from './modules/cost/cost.routes.ts';
import { createCostService } from './modules/cost/cost.service.ts';
import { registerCollectionRoute } from './modules/operations/operations.routes.ts';
import { registerOrganizationRoutes } from './modules/organizations/organizations.routes.ts';
import { createOrganizationsService } from './modules/organizations/organizations.service.ts';
import { registerSystemRoutes } from './modules/system/system.routes.ts';
import { registerTimeseriesRoutes } from './modules/timeseries/timeseries.routes.ts';
import { createTimeseriesService } from './modules/timeseries/timeseries.service.ts';
import { registerTariffModules } from './modules/tariffs/tariffs.module.ts';
import { registerTransitionModule } from './modules/transitions/transitions.module.ts';

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
}

const REDACTED_HEADERS = ['req.headers.authorization', 'req.headers.cookie'];

/** Builds the whole HTTP application without listening: the server and the tests share it. */
export async function buildApp({ config, db, keys, now = () => new Date(), logStream, passwordHashing }: AppDeps): Promise<App> {
  const app = Fastify({
    logger: { level: config.logLevel, redact: REDACTED_HEADERS, ...(logStream ? { stream: logStream } : {}) },
    bodyLimit: 1024 * 1024,
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    ...transportOptions(config.requestTimeoutS),
  }).withTypeProvider() as unknown as App;

  app.setValidatorCompiler(zodValidatorCompiler);
  // The API speaks JSON only: any other body is 415.
  app.removeContentTypeParser('text/plain');
  registerErrorHandler(app);
  registerTransportHooks(app);
  registerSecurityHeaders(app);
  registerReplySerializer(app);
  if (config.corsOrigins.length > 0) await registerCors(app, config.corsOrigins);
  await app.register(rateLimit, { global: false });
  await registerOpenApi(app);

  const metrics = createMetrics(db);
  const tokens = createAccessTokens(keys, config.accessTokenTtlS, now);
  registerAuthentication(app, tokens, config.serviceRoleKey);
  const cache = createReadCache(db);
  app.addHook('onReady', () => cache.start());
  app.addHook('onClose', () => cache.stop());
  const guard = createAccessGuard(db, cache);
  const auth = createAuthService({ db, tokens, refreshTokenTtlS: config.refreshTokenTtlS, now, passwordHashing });
  const authRateLimit = config.authRateLimitPerMin > 0 && { max: config.authRateLimitPerMin, timeWindow: '1 minute' };

  registerSystemRoutes(app, db, keys);
  registerMetrics(app, metrics);
  registerCollectionRoute(app, `http://${config.host}:${config.port}`);
  registerAuthRoutes(app, auth, authRateLimit);
  if (config.serviceRoleKey) registerAdminRoutes(app, createAdminService(db, auth, cache));
  registerOrganizationRoutes(app, createOrganizationsService({ db, guard, cache }));
  registerTimeseriesRoutes(app, createTimeseriesService({ db, guard }));
  registerTariffModules(app, { db, guard, cache });
  registerCostRoutes(app, createCostService({ db, guard }));
  registerTransitionModule(app, {
    db,
    guard,
    cache,
    now,
    pollSeconds: config.transitionPollS,
    onSchedulerRun: (outcome) => metrics.schedulerRuns.inc({ outcome }),
  });
  registerBuildingRoutes(app, { db, guard });
  return app;
}
