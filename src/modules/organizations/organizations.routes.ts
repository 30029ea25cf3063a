import { ok, okList } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { failures, noContent } from '../../http/responses.ts';
import { LIST_PARAMETERS } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { organizationResponses } from './organizations.responses.ts';
import {
  addMemberBody,
  changeMemberBody,
  createOrganizationBody,
  memberParams,
  membersQuery,
  organizationIdParams,
  updateOrganizationBody,
} from './organizations.schemas.ts';
import type { OrganizationsService } from './organizations.service.ts';

const tags = ['Organizations'];
const base = '/api/v1/organizations';
const ORDER =
  'Refusals in this order: 404 when no organization has this id, then 403 when the caller is not a member or the role may not do this.';
const organizationParams = withParamExamples(organizationIdParams, { id: EXAMPLE.accountId });
const NOT_FOUND = 'Organization not found';
const ROLE_TOO_WEAK = 'Your role does not allow this action';

export function registerOrganizationRoutes(app: App, organizations: OrganizationsService): void {
  app.post(
    base,
    {
      schema: {
        tags,
        operationId: 'createOrganization',
        summary: 'Create an organization',
        description:
          'Creates an organization (not a personal account) whose primary owner and OWNER is the caller: primary_owner_user_id must be the caller’s id (403 otherwise). A user creates at most ORGANIZATIONS_PER_USER_PER_DAY (default 20) organizations in any 24 hours, deleted ones included; beyond, 429 with Retry-After (the seconds until the oldest of them is a day old).',
        body: withExample(createOrganizationBody, {
          name: 'Harbour Properties',
          primary_owner_user_id: EXAMPLE.userId,
        }),
        response: {
          201: organizationResponses.created,
          ...failures({
            400: 'name: Too small: expected string to have >=1 characters',
            403: 'primary_owner_user_id must be the caller',
            429: 'A user may create at most 20 organizations in 24 hours; retry later',
          }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await organizations.create(req.auth, req.body))),
  );
  app.get(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'getOrganization',
        summary: 'Get an organization',
        description: `The organization record. Any member may read it. ${ORDER}`,
        params: organizationParams,
        response: {
          200: organizationResponses.organization,
          ...failures({ 400: 'id: Invalid UUID', 403: true, 404: NOT_FOUND }),
        },
      },
    },
    async (req) => ok(await organizations.get(req.auth, req.params.id)),
  );
  app.put(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'updateOrganization',
        summary: 'Update an organization',
        description: `Changes the name, email, picture_url or public_data (a JSON object at most 32 levels deep); fields not sent stay. Needs the OWNER or ADMIN role. ${ORDER}`,
        params: organizationParams,
        body: withExample(updateOrganizationBody, { name: 'Demo Utilities', email: 'energy@example.com' }),
        response: {
          200: organizationResponses.organization,
          ...failures({ 400: 'email: Invalid email address', 403: ROLE_TOO_WEAK, 404: NOT_FOUND }),
        },
      },
    },
    async (req) => ok(await organizations.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    {
      schema: {
        tags,
        operationId: 'deleteOrganization',
        summary: 'Delete an organization',
        description: `Deletes the organization with its memberships. OWNER only. A personal account cannot be deleted (400); an organization that still has building blocks, meters or tariffs: 409. ${ORDER}`,
        params: organizationParams,
        response: {
          204: noContent,
          ...failures({
            400: 'A personal account cannot be deleted',
            403: ROLE_TOO_WEAK,
            404: NOT_FOUND,
            409: 'The organization has dependent records (building blocks, meters or tariffs)',
          }),
        },
      },
    },
    async (req, reply) => {
      await organizations.remove(req.auth, req.params.id);
      return reply.code(204).send();
    },
  );
  app.get(
    `${base}/:id/members`,
    {
      schema: {
        tags,
        operationId: 'listMembers',
        summary: 'List the members',
        description: `The members with their roles; any member may list them. ${LIST_PARAMETERS} query searches e-mails; sortBy: created_at, email, role. ${ORDER}`,
        params: organizationParams,
        querystring: membersQuery,
        response: { 200: organizationResponses.members, ...failures({ 400: true, 403: true, 404: NOT_FOUND }) },
      },
    },
    async (req) => okList(await organizations.listMembers(req.auth, req.params.id, req.query)),
  );
  app.post(
    `${base}/:id/members`,
    {
      schema: {
        tags,
        operationId: 'addMember',
        summary: 'Add a member',
        description: `Adds an existing user, named by userId or by email, with a role (OWNER, ADMIN or MEMBER). Needs the OWNER or ADMIN role; only an OWNER may add an OWNER. An unknown user: 404; a user who is already a member: 409. ${ORDER}`,
        params: organizationParams,
        body: withExample(addMemberBody, { userId: EXAMPLE.userId, role: 'MEMBER' }),
        response: {
          201: organizationResponses.member,
          ...failures({
            400: 'role: Invalid option: expected one of "OWNER"|"ADMIN"|"MEMBER"',
            403: 'Only an OWNER may manage owners',
            404: 'User not found',
            409: 'The user is already a member of this organization',
          }),
        },
      },
    },
    async (req, reply) => reply.code(201).send(ok(await organizations.addMember(req.auth, req.params.id, req.body))),
  );
  app.put(
    `${base}/:id/members/:userId`,
    {
      schema: {
        tags,
        operationId: 'updateMemberRole',
        summary: "Change a member's role",
        description: `Gives a member another role (OWNER, ADMIN or MEMBER). Needs the OWNER or ADMIN role; only an OWNER may make or unmake an OWNER. A user who is not a member: 404; the primary owner's role cannot be changed: 409. ${ORDER}`,
        params: withParamExamples(memberParams, { id: EXAMPLE.accountId, userId: EXAMPLE.userId }),
        body: withExample(changeMemberBody, { role: 'ADMIN' }),
        response: {
          200: organizationResponses.changedMember,
          ...failures({
            400: 'role: Invalid option: expected one of "OWNER"|"ADMIN"|"MEMBER"',
            403: 'Only an OWNER may manage owners',
            404: 'Member not found',
            409: "The primary owner's role cannot be changed",
          }),
        },
      },
    },
    async (req) => ok(await organizations.changeMemberRole(req.auth, req.params.id, req.params.userId, req.body.role)),
  );
  app.delete(
    `${base}/:id/members/:userId`,
    {
      schema: {
        tags,
        operationId: 'removeMember',
        summary: 'Remove a member',
        description: `Removes a user from the organization. Needs the OWNER or ADMIN role; only an OWNER may remove an OWNER. A user who is not a member: 404; the primary owner cannot be removed: 409. ${ORDER}`,
        params: withParamExamples(memberParams, { id: EXAMPLE.accountId, userId: EXAMPLE.userId }),
        response: {
          204: noContent,
          ...failures({
            400: 'userId: Invalid UUID',
            403: 'Only an OWNER may manage owners',
            404: 'Member not found',
            409: 'The primary owner cannot be removed',
          }),
        },
      },
    },
    async (req, reply) => {
      await organizations.removeMember(req.auth, req.params.id, req.params.userId);
      return reply.code(204).send();
    },
  );
}
