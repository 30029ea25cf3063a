import { ok, okList } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { credentialsBody } from '../auth/auth.schemas.ts';
import { userIdParams, userListQuery } from './admin.schemas.ts';
import type { AdminService } from './admin.service.ts';

const tags = ['Administration'];
const config = { serviceRole: true };

/** User management for trusted services: the bearer token must be SERVICE_ROLE_KEY. */
export function registerAdminRoutes(app: App, admin: AdminService): void {
  app.post('/api/v1/admin/users', { config, schema: { tags, body: credentialsBody } }, async (req, reply) =>
    reply.code(201).send(ok(await admin.createUser(req.body))),
  );
  app.get('/api/v1/admin/users', { config, schema: { tags, querystring: userListQuery } }, async (req) =>
    okList(await admin.listUsers(req.query)),
  );
  app.delete('/api/v1/admin/users/:id', { config, schema: { tags, params: userIdParams } }, async (req, reply) => {
    await admin.deleteUser(req.params.id);
    return reply.code(204).send();
  });
}
