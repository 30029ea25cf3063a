import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { credentialsBody } from '../../http/fields.ts';
import { noContent, serviceRoleFailures } from '../../http/responses.ts';
import type { App } from '../../http/types.ts';
import { adminResponses } from './admin.responses.ts';
import { userIdParams, userListQuery } from './admin.schemas.ts';
import type { AdminService } from './admin.service.ts';

const tags = ['Administration'];
const config = { serviceRole: true };
const SERVICE_ROLE =
  'For trusted services: the bearer token must be the SERVICE_ROLE_KEY of the server (any other token: 401); without that key configured these operations do not exist (404).';
const WRONG_KEY = 'Invalid bearer token';

/** User management for trusted services: the bearer token must be SERVICE_ROLE_KEY. */
export function registerAdminRoutes(app: App, admin: AdminService): void {
  app.post(
    '/api/v1/admin/users',
    {
      config,
      schema: {
        tags,
        operationId: 'createUser',
        summary: 'Create a user',
        description: `Creates a user with a personal account, as sign-up would (its password hashed in turn with sign-ins). An e-mail already registered: 409. ${SERVICE_ROLE}`,
        body: withExample(credentialsBody, { email: 'meter.reader@example.com', password: 'correct horse battery' }),
        response: {
          201: adminResponses.created,
          ...serviceRoleFailures({
            400: 'email: Invalid email address',
            401: WRONG_KEY,
            409: 'User already registered',
            429: 'Too many sign-ins on this server at once; retry shortly',
          }),
        },
      },
    },
    async (req, reply) =>
      reply.code(201).send(ok(await admin.createUser(req.body, { userId: req.ip, signal: req.deadline }))),
  );
  app.get(
    '/api/v1/admin/users',
    {
      config,
      schema: {
        tags,
        operationId: 'listUsers',
        summary: 'List users',
        description: `Every user, a page at a time: page, limit (1 to 100, default 10), query (searches e-mails), sortBy (created_at, email, id), sortOrder. ${SERVICE_ROLE}`,
        querystring: userListQuery,
        response: { 200: adminResponses.users, ...serviceRoleFailures({ 400: true, 401: WRONG_KEY }) },
      },
    },
    async (req) => okList(await admin.listUsers(req.query)),
  );
  app.delete(
    '/api/v1/admin/users/:id',
    {
      config,
      schema: {
        tags,
        operationId: 'deleteUser',
        summary: 'Delete a user',
        description: `Deletes the user with their memberships and personal account. A user who is the primary owner of an organization that still has records: 409. ${SERVICE_ROLE}`,
        params: withParamExamples(userIdParams, { id: EXAMPLE.userId }),
        response: {
          204: noContent,
          ...serviceRoleFailures({
            400: 'id: Invalid UUID',
            401: WRONG_KEY,
            404: 'User not found',
            409: 'The user owns organizations with records',
          }),
        },
      },
    },
    async (req, reply) => {
      await admin.deleteUser(req.params.id);
      return reply.code(204).send();
    },
  );
}
