import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';

/**
 * Refusals (401 of a request without a valid token, 404 of a route that does not exist) a client
 * address may have a minute, counted by @fastify/rate-limit: past them its requests answer 429 with
 * Retry-After before anything else is done with them (no token is verified), until the minute ends.
 */
export interface RefusalLimit {
  /** 429 when the client address has had its refusals of the minute. */
  check(request: FastifyRequest): Promise<void>;
  /** Counts a refusal of the client address; returns the error to answer (429 once past the limit). */
  refuse(request: FastifyRequest, error: Error): Promise<Error>;
}

const tooMany = (ttlInSeconds: number) =>
  new AppError(429, 'Too many requests', 'Too many refused requests from this address; retry later', {
    headers: { 'retry-after': String(Math.max(1, ttlInSeconds)) },
  });

/** No limit: every refusal answered as it is (perMin 0 or absent). */
const UNLIMITED: RefusalLimit = { check: async () => {}, refuse: async (_request, error) => error };

export function createRefusalLimit(app: FastifyInstance, perMin: number | undefined): RefusalLimit {
  if (!perMin) return UNLIMITED;
  const limit = app.createRateLimit({ max: perMin, timeWindow: '1 minute' });
  return {
    async check(request) {
      const state = await limit(request, { increment: false });
      if (!state.isAllowed && state.remaining === 0) throw tooMany(state.ttlInSeconds);
    },
    async refuse(request, error) {
      const state = await limit(request);
      return !state.isAllowed && state.isExceeded ? tooMany(state.ttlInSeconds) : error;
    },
  };
}
