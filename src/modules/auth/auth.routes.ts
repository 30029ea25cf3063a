import { ok, okAll } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { credentialsBody, loginBody, refreshBody, userIdParams } from './auth.schemas.ts';
import type { AuthService } from './auth.service.ts';

const tags = ['Authentication'];

export function registerAuthRoutes(app: App, auth: AuthService, rateLimit: object | false): void {
  const publicLimited = { public: true, ...(rateLimit ? { rateLimit } : {}) };

  app.post('/api/v1/auth/signup', { config: publicLimited, schema: { tags, body: credentialsBody } }, async (req) =>
    ok(await auth.signup(req.body)),
  );
  app.post('/api/v1/auth/login', { config: publicLimited, schema: { tags, body: loginBody } }, async (req) =>
    ok(await auth.login(req.body)),
  );
  app.post('/api/v1/auth/refresh', { config: publicLimited, schema: { tags, body: refreshBody } }, async (req) =>
    ok(await auth.refresh(req.body.refresh_token)),
  );
  app.post('/api/v1/auth/logout', { schema: { tags } }, async (req, reply) => {
    await auth.logout(req.auth);
    return reply.code(204).send();
  });
  app.get('/api/v1/auth/organizations', { schema: { tags } }, async (req) => okAll(await auth.organizations(req.auth)));
  app.get('/api/v1/auth/users/:userId/organizations', { schema: { tags, params: userIdParams } }, async (req) =>
    okAll(await auth.organizationsOfUser(req.auth, req.params.userId)),
  );
}
