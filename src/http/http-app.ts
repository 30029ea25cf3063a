import rateLimit from '@fastify/rate-limit';
import underPressure from '@fastify/under-pressure';
import Fastify from 'fastify';
import type { ProcessAdmission } from './admission.ts';
import { BUILT_SWAGGER_UI, registerCompression } from './compression.ts';
import { registerCors } from './cors.ts';
import { registerErrorHandler } from './error-handler.ts';
import { AppError } from './errors.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { registerOpenApi } from './openapi.ts';
import { createRefusalLimit, type RefusalLimit } from './refusal-limit.ts';
import { registerRequestIdHeader, requestIdOf } from './request-id.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { registerReplySerializer } from './serializer.ts';
import { registerTransportHooks, transportOptions } from './transport-errors.ts';
import type { App } from './types.ts';
import { registerStrictQueries, zodValidatorCompiler } from './validation.ts';

interface HttpAppOptions {
  logLevel: string;
  requestTimeoutS: number;
  corsOrigins: readonly string[];
  /** The proxies believed about the client's address (none when absent). */
  trustProxy?: TrustProxy | undefined;
  /** Where JSON log lines go (standard output when absent). */
  logStream?: NodeJS.WritableStream | undefined;
  /** Swagger UI's assets as the build compressed them (BUILT_SWAGGER_UI unless a test names another). */
  swaggerUiDirectory?: string | undefined;
  /** The process's admission: each request's deadline, large bodies admitted as work (none in tests of the HTTP layer alone). */
  admission?: ProcessAdmission | undefined;
  /** 401s and 404s a client address may have a minute; past them 429 (no limit when absent). */
  refusalsPerMin?: number | undefined;
  /**
   * The event-loop lag (ms) past which every request is shed with 503 (none when absent or 0): a
   * last resort far above what the fair scheduler lets through (its floods keep the lag under 50 ms).
   */
  shedAtEventLoopDelayMs?: number | undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The refusals (401, 404) of each client address, limited a minute. */
    refusals: RefusalLimit;
  }
}

const OVERLOADED = new AppError(503, 'Service unavailable', 'The server is overloaded; retry shortly', {
  headers: { 'retry-after': '1' },
  code: 'OVERLOADED',
});

/** Which proxies in front of the service are believed about who the client is: all, as many hops, or these addresses and CIDRs. */
export type TrustProxy = boolean | number | readonly string[];

const REDACTED_HEADERS = ['req.headers.authorization', 'req.headers.cookie'];

/**
 * Fastify's trustProxy for TRUST_PROXY. Fastify 5 trusts no one for a bare hop count (it cannot tell
 * a proxy from a client that reached the service directly), so a count is written as what it
 * means: the addresses that many hops from the service are proxies.
 */
function fastifyTrustProxy(trust: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return typeof trust === 'boolean' ? trust : [...trust];
}

/**
 * Fastify as every route of the service expects it: zod validation, JSON only, the one error
 * handler, transport limits, security headers, compression, CORS, rate limiting and the API
 * reference.
 */
export async function createHttpApp({
  logLevel,
  requestTimeoutS,
  corsOrigins,
  trustProxy = false,
  logStream,
  swaggerUiDirectory = BUILT_SWAGGER_UI,
  admission,
  refusalsPerMin,
  shedAtEventLoopDelayMs,
}: HttpAppOptions): Promise<App> {
  const app = Fastify({
    logger: { level: logLevel, redact: REDACTED_HEADERS, ...(logStream ? { stream: logStream } : {}) },
    bodyLimit: 1024 * 1024,
    // The client's x-request-id only when it is valid (requestIdOf): Fastify's own reading takes any.
    genReqId: requestIdOf,
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(trustProxy),
    ...transportOptions(requestTimeoutS),
  }).withTypeProvider() as unknown as App;

  registerRequestIdHeader(app);
  app.setValidatorCompiler(zodValidatorCompiler);
  registerStrictQueries(app);
  // The API speaks JSON only: any other body is 415.
  app.removeContentTypeParser('text/plain');
  if (shedAtEventLoopDelayMs) {
    await app.register(underPressure, {
      maxEventLoopDelay: shedAtEventLoopDelayMs,
      // A sample of a second: a shorter one holding no tick of the loop reads as infinite lag.
      sampleInterval: 1000,
      pressureHandler: () => Promise.reject(OVERLOADED),
    });
  }
  admission?.registerDeadline(app);
  registerJsonBodyParser(app, admission);
  await app.register(rateLimit, { global: false });
  app.decorate('refusals', createRefusalLimit(app, refusalsPerMin));
  registerErrorHandler(app, app.refusals);
  registerTransportHooks(app);
  registerSecurityHeaders(app);
  registerReplySerializer(app);
  await registerCompression(app, swaggerUiDirectory);
  if (corsOrigins.length > 0) await registerCors(app, corsOrigins);
  await registerOpenApi(app);
  return app;
}
