import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext, GatewayCaller } from './auth-context.ts';
import { EXPIRED_TOKEN, INVALID_TOKEN, unauthorized } from './errors.ts';
import { type GatewayKeys, gatewayAuth, gatewayKey } from './gateway-callers.ts';

/** A verified caller, or why the token is refused. */
export type TokenCheck = { auth: AuthContext } | { refused: 'expired' | 'invalid' };

/** What the authentication hook needs of the access tokens: checking one. */
export interface TokenVerifier {
  verify(token: string): Promise<TokenCheck>;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * The caller's context on one request: its deadline is read (and so made) only by what waits. A
 * class, not an object with a getter: one small object a request, of one shape.
 */
class RequestCaller implements AuthContext {
  readonly userId: string;
  readonly email: string;
  readonly sessionId: string;
  readonly gateway?: GatewayCaller;
  readonly #request: FastifyRequest;

  constructor(auth: Omit<AuthContext, 'signal'>, request: FastifyRequest) {
    this.userId = auth.userId;
    this.email = auth.email;
    this.sessionId = auth.sessionId;
    if (auth.gateway) this.gateway = auth.gateway;
    this.#request = request;
  }

  get signal(): AbortSignal | undefined {
    return this.#request.deadline;
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Runs before validation, so a request without a valid token gets 401 before any 400.
 * Routes marked public skip it; unknown routes fall through to the 404 handler. A 401 counts
 * against its client address's refusals (refusal-limit.ts): past them, 429 before any token is
 * verified. The caller's context carries the request's deadline. A gateway's key
 * (`authorization: Gateway <key>`) opens the routes marked gatewayKeys only, checked on the
 * database at every request (a rotated or deleted key is refused at once in every process); on any
 * other route it is no user: 401.
 */
export function registerAuthentication(
  app: FastifyInstance,
  tokens: TokenVerifier,
  serviceRoleKey: string | undefined,
  gateways: GatewayKeys,
): void {
  const refuse = (request: FastifyRequest, error: Error) => app.refusals.refuse(request, error);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url || config.public) return;
    await app.refusals.check(request);
    const key = gatewayKey(request);
    if (key !== undefined) {
      const gateway = config.gatewayKeys ? await gateways.check(key) : undefined;
      if (!gateway) throw await refuse(request, unauthorized(INVALID_TOKEN, true));
      request.auth = new RequestCaller(gatewayAuth(gateway), request);
      return;
    }
    const token = bearerToken(request);
    if (!token) throw await refuse(request, unauthorized());
    if (config.serviceRole) {
      if (!serviceRoleKey || !sameSecret(token, serviceRoleKey))
        throw await refuse(request, unauthorized(INVALID_TOKEN, true));
      return;
    }
    const check = await tokens.verify(token);
    if ('refused' in check) {
      throw await refuse(request, unauthorized(check.refused === 'expired' ? EXPIRED_TOKEN : INVALID_TOKEN, true));
    }
    request.auth = new RequestCaller(check.auth, request);
  });
}
