import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, INVALID_PATH } from '../../http/errors.ts';
import { MAX_PARAM_LENGTH } from '../../http/limits.ts';
import type { App } from '../../http/types.ts';

/**
 * Paths that belong to the API and the service's documents, in any case (`/HEALTHZ` is a
 * mistyped service path, not a console page).
 */
const SERVICE_PATHS = /^\/(api|docs|\.well-known|metrics|healthz|readyz)(\/|$)/i;

/**
 * A console page: a path outside the service's own without a dot (a dot makes a file name, or a
 * hidden directory such as /.git).
 */
export function isConsolePage(url: string): boolean {
  const path = url.split('?')[0] ?? '/';
  return !SERVICE_PATHS.test(path) && !path.includes('.');
}

/** A browser asking for a page: its Accept names text/html (a JSON client's does not). */
function acceptsHtml(request: FastifyRequest): boolean {
  return /\btext\/html\b/i.test(request.headers.accept ?? '');
}

/**
 * An unknown path that is not the console's: what the router answers without this wildcard (a
 * segment too long for a path parameter is a 400; anything else the 404 envelope).
 */
function notConsolePage(url: string, reply: FastifyReply) {
  const segments = (url.split('?')[0] ?? '').split('/');
  if (segments.some((segment) => segment.length > MAX_PARAM_LENGTH)) {
    throw new AppError(400, INVALID_PATH, `path: A path parameter is longer than ${MAX_PARAM_LENGTH} characters`);
  }
  return reply.callNotFound();
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function cacheHeaders(reply: FastifyReply, path: string): void {
  // Vite names every asset by its content: it never changes. The page itself is checked each time.
  reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
}

/** The page, from the directory, checked on every visit (the service's reply.sendFile: compression.ts). */
const sendPage = (reply: FastifyReply, directory: string) =>
  reply.header('cache-control', 'no-cache').sendFile('index.html', directory, { cacheControl: false });

/**
 * The built console (directory: index.html and assets/) at /, without a token: its files, and
 * its page for every console path asked for by a browser (Accept: text/html; the browser's
 * router shows the page the path names). Other unknown paths keep the API's 404 envelope.
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
      decorateReply: false,
      cacheControl: false,
      setHeaders: cacheHeaders,
    });
    scope.get('/*', { schema: { hide: true } }, async (request, reply) =>
      isConsolePage(request.url) && acceptsHtml(request)
        ? sendPage(reply, directory)
        : notConsolePage(request.url, reply),
    );
  });
}
