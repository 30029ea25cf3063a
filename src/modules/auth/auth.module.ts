import cookie from '@fastify/cookie';
import type { App } from '../../http/types.ts';
import { registerAuthRoutes } from './auth.routes.ts';
import { type AuthService, type AuthServiceDeps, createAuthService } from './auth.service.ts';

interface AuthModuleDeps extends AuthServiceDeps {
  /** Sign-up, login and refresh requests a client may make per minute; 0 for no limit. */
  rateLimitPerMin: number;
  /** Origins besides the service's own whose pages may refresh a session. */
  corsOrigins: readonly string[];
}

/** Sign-up, login, token refresh and logout, and the caller's organizations. */
export function registerAuthModule(app: App, { rateLimitPerMin, corsOrigins, ...deps }: AuthModuleDeps): AuthService {
  const auth = createAuthService(deps);
  app.register(cookie);
  registerAuthRoutes(app, auth, {
    rateLimit: rateLimitPerMin > 0 && { max: rateLimitPerMin, timeWindow: '1 minute' },
    refreshTokenTtlS: deps.refreshTokenTtlS,
    corsOrigins,
  });
  return auth;
}
