import type { FastifyRequest } from 'fastify';
import { ok, okAll } from '../../http/envelope.ts';
import { badRequest } from '../../http/errors.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { credentialsBody } from '../../http/fields.ts';
import { failures, noContent, publicFailures } from '../../http/responses.ts';
import type { App } from '../../http/types.ts';
import { authResponses } from './auth.responses.ts';
import { loginBody, refreshBody, userIdParams } from './auth.schemas.ts';
import type { AuthService } from './auth.service.ts';
import { clearRefreshCookie, REFRESH_PATH, refreshCookieOf, setRefreshCookie } from './refresh-cookie.ts';
import { assertOwnOrigin, OTHER_ORIGIN } from './refresh-origin.ts';

const tags = ['Authentication'];
const RATE_LIMITED =
  'Limited to AUTH_RATE_LIMIT_PER_MIN requests per minute per client address (default 20), shared with sign-in, sign-up and refresh; more answer 429.';
const TOO_MANY = 'Rate limit exceeded, retry in 1 minute';
const HASHES_IN_TURN =
  'Passwords are hashed and checked in turns of their own, SIGN_IN_CONCURRENCY at once (half the cores), client addresses in turn; past its queue a request answers 429 at once, past its deadline (REQUEST_DEADLINE_S) 503.';

/** The client address of a sign-in, whose turn its password's hash takes, with the request's deadline. */
const clientOf = (req: FastifyRequest) => ({ userId: req.ip, signal: req.deadline });

const COOKIE =
  'The refresh token is also set in the cookie ums_refresh_token (HttpOnly, SameSite=Strict, Path=/api/v1/auth/refresh, Secure over HTTPS), for a browser that keeps no token where scripts can read it.';

interface AuthRouteOptions {
  /** Sign-up, login and refresh requests a client may make per minute, or no limit. */
  rateLimit: object | false;
  /** The lifetime of the refresh cookie: that of a refresh token. */
  refreshTokenTtlS: number;
  /** Origins besides the service's own whose pages may refresh a session (CORS_ORIGINS). */
  corsOrigins: readonly string[];
}

export function registerAuthRoutes(
  app: App,
  auth: AuthService,
  { rateLimit, refreshTokenTtlS, corsOrigins }: AuthRouteOptions,
): void {
  const publicLimited = { public: true, ...(rateLimit ? { rateLimit } : {}) };

  app.post(
    '/api/v1/auth/signup',
    {
      config: publicLimited,
      schema: {
        tags,
        operationId: 'signUp',
        summary: 'Sign up',
        description: `Registers a user with a personal account (the user its OWNER). Returns the user, no tokens: sign in next. The e-mail is stored lower-case; the password has 8 to 128 characters. An e-mail already registered: 401. ${RATE_LIMITED} ${HASHES_IN_TURN}`,
        body: withExample(credentialsBody, { email: 'new.user@example.com', password: 'correct horse battery' }),
        response: {
          200: authResponses.signup,
          ...publicFailures({ 400: 'email: Invalid email address', 401: 'User already registered', 429: TOO_MANY }),
        },
      },
    },
    async (req) => ok(await auth.signup(req.body, clientOf(req))),
  );
  app.post(
    '/api/v1/auth/login',
    {
      config: publicLimited,
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Sign in',
        description: `Signs in with e-mail and password and starts a session: an access token (a JWT, valid ACCESS_TOKEN_TTL_S seconds, default 3600) and a single-use refresh token. ${COOKIE} Wrong credentials: 401. ${RATE_LIMITED} ${HASHES_IN_TURN}`,
        body: withExample(loginBody, { email: 'demo@example.com', password: 'demo-password' }),
        response: {
          200: authResponses.login,
          ...publicFailures({
            400: 'password: Too small: expected string to have >=1 characters',
            401: { message: 'Unauthorized', error: 'Invalid login credentials' },
            429: TOO_MANY,
          }),
        },
      },
    },
    async (req, reply) => {
      const session = await auth.login(req.body, clientOf(req));
      setRefreshCookie(req, reply, session.refresh_token, refreshTokenTtlS);
      return ok(session);
    },
  );
  app.post(
    REFRESH_PATH,
    {
      config: publicLimited,
      schema: {
        tags,
        operationId: 'refreshSession',
        summary: 'Refresh the session',
        description: `Exchanges a refresh token for a new access token and refresh token. The token is read from the body, else from the refresh cookie set at sign-in (then the body may be left out); the new one is set in the cookie too, and a refused cookie is cleared. Each refresh token works once: presenting a used one revokes the whole session (401), as does an expired or unknown one. A request of a page of another origin is 403: an Origin other than the one the request was addressed to (or one of CORS_ORIGINS), or Sec-Fetch-Site same-site or cross-site. ${RATE_LIMITED}`,
        body: withExample(refreshBody, { refresh_token: 'O_7vR3JmUiz2vkFMo67XKu1sKX4iDEjbAExMAkbnBmI' }),
        response: {
          200: authResponses.refresh,
          ...publicFailures({
            400: 'refresh_token: Invalid input: expected string, received undefined',
            401: { message: 'Unauthorized', error: 'Invalid refresh token' },
            403: OTHER_ORIGIN,
            429: TOO_MANY,
          }),
        },
      },
    },
    async (req, reply) => {
      assertOwnOrigin(req, corsOrigins);
      const fromBody = req.body?.refresh_token;
      const token = fromBody ?? refreshCookieOf(req);
      if (token === undefined) throw badRequest('refresh_token: Invalid input: expected string, received undefined');
      try {
        const session = await auth.refresh(token);
        setRefreshCookie(req, reply, session.refresh_token, refreshTokenTtlS);
        return ok(session);
      } catch (error) {
        if (fromBody === undefined) clearRefreshCookie(req, reply);
        throw error;
      }
    },
  );
  app.post(
    '/api/v1/auth/logout',
    {
      schema: {
        tags,
        operationId: 'signOut',
        summary: 'Sign out',
        description:
          'Revokes the session of the access token: its refresh token stops working at once, and the refresh cookie is cleared. The access token itself stays valid until it expires.',
        response: { 204: noContent, ...failures({ 400: 'body: Malformed JSON' }) },
      },
    },
    async (req, reply) => {
      await auth.logout(req.auth);
      clearRefreshCookie(req, reply);
      return reply.code(204).send();
    },
  );
  app.get(
    '/api/v1/auth/organizations',
    {
      schema: {
        tags,
        operationId: 'listMyOrganizations',
        summary: 'List my organizations',
        description:
          "The organizations the caller is a member of (the personal account first), with the caller's role in each. Their ids are the account_id of every organization-scoped request. Unpaginated.",
        response: { 200: authResponses.organizations, ...failures({}) },
      },
    },
    async (req) => okAll(await auth.organizations(req.auth)),
  );
  app.get(
    '/api/v1/auth/users/:userId/organizations',
    {
      schema: {
        tags,
        operationId: 'listUserOrganizations',
        summary: "List a user's organizations",
        description:
          'The organizations of userId that the caller is also a member of, each with the role of userId in it; an organization the caller does not belong to is left out (an unknown user gives an empty list). Unpaginated.',
        params: withParamExamples(userIdParams, { userId: EXAMPLE.userId }),
        response: { 200: authResponses.organizationsOfUser, ...failures({ 400: 'userId: Invalid UUID' }) },
      },
    },
    async (req) => okAll(await auth.organizationsOfUser(req.auth, req.params.userId)),
  );
}
