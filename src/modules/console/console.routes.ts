import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { badRequest } from '../../http/errors.ts';
import { MAX_PARAM_LENGTH } from '../../http/limits.ts';
import type { App } from '../../http/types.ts';

/** Paths that belong to the API and the service's documents: never the console's pages. */
const SERVICE_PATHS = /^\/(api|docs|\.well-known|metrics|healthz|readyz)(\/|$)/;

/** A console page: a path outside the service's own, whose last segment is not a file name. */
export function isConsolePage(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  return !SERVICE_PATHS.test(path) && !/\.[^/]*$/.test(path);
}

/**
 * An unknown path that is not the console's: what the router answers without this wildcard (a
 * segment too long for a path parameter is a 400; anything else the 404 envelope).
 */
function notConsolePage(url: string, reply: FastifyReply) {
  const segments = (url.split('?')[0] ?? '').split('/');
  if (segments.some((segment) => segment.length > MAX_PARAM_LENGTH)) {
    throw badRequest(`path: A path parameter is longer than ${MAX_PARAM_LENGTH} characters`);
  }
  return reply.callNotFound();
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function cacheHeaders(reply: FastifyReply, path: string): void {
  // Vite names every asset by its content: it never changes. The page itself is checked each time.
  reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
}

const sendPage = (reply: FastifyReply) => reply.sendFile('index.html', { maxAge: 0, immutable: false });

/**
 * The built console (directory: index.html and assets/) at /, without a token: its files, and
 * its page for every console path (the browser's router shows the page the path names). Other
 * unknown paths keep the API's 404 envelope.
 */
export async function registerConsoleRoutes(app: App, directory: string): Promise<void> {
  if (!existsSync(join(directory, 'index.html'))) {
    app.log.warn({ directory }, 'the console is not built: run npm run build');
    app.get('/', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
      reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The console is not built: run `npm run build`, then start the service again.\n'),
    );
    return;
  }
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await scope.register(fastifyStatic, {
      root: directory,
      wildcard: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheHeaders,
    });
    scope.get('/*', { schema: { hide: true } }, async (request, reply) =>
      isConsolePage(request.url) ? sendPage(reply) : notConsolePage(request.url, reply),
    );
  });
}
