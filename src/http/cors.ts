import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';

/**
 * Cross-origin access for the configured origins. An OPTIONS request that is not a preflight is
 * refused here with the envelope (the plugin would answer it in plain text).
 */
export async function registerCors(app: FastifyInstance, origins: readonly string[]): Promise<void> {
  app.addHook('onRequest', (request, _reply, done) => {
    const preflight = request.headers.origin && request.headers['access-control-request-method'];
    done(
      request.method === 'OPTIONS' && !preflight
        ? badRequest('headers: A preflight request needs the Origin and Access-Control-Request-Method headers')
        : undefined,
    );
  });
  await app.register(cors, {
    origin: [...origins],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', REQUEST_ID_HEADER],
    exposedHeaders: ['retry-after', 'www-authenticate', REQUEST_ID_HEADER],
  });
}
