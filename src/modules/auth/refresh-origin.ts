import type { FastifyRequest } from 'fastify';
import { forbidden } from '../../http/errors.ts';
import { overHttps } from './refresh-cookie.ts';

export const OTHER_ORIGIN = "A session is refreshed only from the service's own origin";

/** An origin as a URL spells it (default ports dropped), or undefined when it is none (`null`, garbage). */
function originOf(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

const header = (req: FastifyRequest, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * 403 for a refresh a page of another origin asked for (extensions §13.7). Another port of the same
 * host is the same site, so the browser sends it the SameSite=Strict cookie: its `Origin` (another
 * origin than the one the request was addressed to, nor one of CORS_ORIGINS) or its
 * `Sec-Fetch-Site` (same-site, cross-site) gives it away. An API client sends neither header.
 */
export function assertOwnOrigin(req: FastifyRequest, allowedOrigins: readonly string[]): void {
  const site = header(req, 'sec-fetch-site');
  if (site === 'same-site' || site === 'cross-site') throw forbidden(OTHER_ORIGIN);
  const origin = header(req, 'origin');
  if (origin === undefined) return;
  const own = originOf(`${overHttps(req) ? 'https' : 'http'}://${req.host}`);
  const sent = originOf(origin);
  if (sent === undefined || (sent !== own && !allowedOrigins.some((allowed) => originOf(allowed) === sent))) {
    throw forbidden(OTHER_ORIGIN);
  }
}
