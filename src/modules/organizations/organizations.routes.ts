import { ok, okList } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import {
  addMemberBody,
  createOrganizationBody,
  memberParams,
  membersQuery,
  organizationIdParams,
  updateOrganizationBody,
} from './organizations.schemas.ts';
import type { OrganizationsService } from './organizations.service.ts';

const tags = ['Organizations'];
const base = '/api/v1/organizations';

export function registerOrganizationRoutes(app: App, organizations: OrganizationsService): void {
  app.post(base, { schema: { tags, body: createOrganizationBody } }, async (req, reply) =>
    reply.code(201).send(ok(await organizations.create(req.auth, req.body))),
  );
  app.get(`${base}/:id`, { schema: { tags, params: organizationIdParams } }, async (req) =>
    ok(await organizations.get(req.auth, req.params.id)),
  );
  app.put(
    `${base}/:id`,
    { schema: { tags, params: organizationIdParams, body: updateOrganizationBody } },
    async (req) => ok(await organizations.update(req.auth, req.params.id, req.body)),
  );
  app.delete(`${base}/:id`, { schema: { tags, params: organizationIdParams } }, async (req, reply) => {
    await organizations.remove(req.auth, req.params.id);
    return reply.code(204).send();
  });
  app.get(
    `${base}/:id/members`,
    { schema: { tags, params: organizationIdParams, querystring: membersQuery } },
    async (req) => okList(await organizations.listMembers(req.auth, req.params.id, req.query)),
  );
  app.post(
    `${base}/:id/members`,
    { schema: { tags, params: organizationIdParams, body: addMemberBody } },
    async (req, reply) => reply.code(201).send(ok(await organizations.addMember(req.auth, req.params.id, req.body))),
  );
  app.delete(`${base}/:id/members/:userId`, { schema: { tags, params: memberParams } }, async (req, reply) => {
    await organizations.removeMember(req.auth, req.params.id, req.params.userId);
    return reply.code(204).send();
  });
}
