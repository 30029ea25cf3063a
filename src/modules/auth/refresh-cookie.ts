import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The refresh token as the console keeps it: in a cookie that scripts cannot read (HttpOnly), that
 * no other site's page sends (SameSite=Strict), that goes only to the refresh endpoint (its path),
 * and only over HTTPS when the request came over HTTPS (Secure).
 */
const REFRESH_COOKIE = 'ums_refresh_token';
export const REFRESH_PATH = '/api/v1/auth/refresh';

/** Whether the request came over HTTPS: to the server, or to a proxy in front of it that says so. */
export function overHttps(req: FastifyRequest): boolean {
  const forwarded = req.headers['x-forwarded-proto'];
  const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return req.protocol === 'https' || proto === 'https';
}

const attributes = (req: FastifyRequest) =>
  ({ httpOnly: true, sameSite: 'strict', path: REFRESH_PATH, secure: overHttps(req) }) as const;

export function setRefreshCookie(req: FastifyRequest, reply: FastifyReply, token: string, maxAgeS: number): void {
  reply.setCookie(REFRESH_COOKIE, token, { ...attributes(req), maxAge: maxAgeS });
}

export function clearRefreshCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(REFRESH_COOKIE, attributes(req));
}

export const refreshCookieOf = (req: FastifyRequest): string | undefined => req.cookies[REFRESH_COOKIE] || undefined;
