import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conflict,
  FORBIDDEN_NOT_MEMBER,
  forbidden,
  invalid,
  invalidQuery,
  notFound,
} from '../../../test/helpers/envelopes.ts';
import {
  addMember,
  createOrganization,
  type OrganizationWithRoles,
  organizationWithRoles,
  registerUser,
  type TestUser,
} from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { insertTariff } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
/** For the tests that change neither the organization nor its members. */
let shared: OrganizationWithRoles;
/** A user of no organization but its own personal account, which no test changes. */
let loner: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  [shared, loner] = await Promise.all([organizationWithRoles(t.app), registerUser(t.app)]);
});
afterAll(async () => t.close());

const base = '/api/v1/organizations';

describe('create', () => {
  it('creates a non-personal organization with the caller as OWNER', async () => {
    const owner = await registerUser(t.app);
    const res = await owner.client.post(base, { name: 'Grid Co', primary_owner_user_id: owner.id });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(String),
        name: 'Grid Co',
        email: null,
        picture_url: null,
        public_data: {},
        is_personal_account: false,
        primary_owner_user_id: owner.id,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const orgs = await owner.client.get('/api/v1/auth/organizations');
    expect(orgs.body.data).toContainEqual({
      id: res.body.data.id,
      name: 'Grid Co',
      is_personal_account: false,
      role: 'OWNER',
    });
  });

  it('refuses another user as primary owner (403) and a non-uuid (400)', async () => {
    const [owner, other] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const foreign = await owner.client.post(base, { name: 'X', primary_owner_user_id: other.id });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(forbidden('primary_owner_user_id must be the caller'));
    const bad = await owner.client.post(base, { name: 'X', primary_owner_user_id: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(invalid('primary_owner_user_id: Invalid UUID'));
    const missing = await owner.client.post(base, { primary_owner_user_id: owner.id });
    expect(missing.body.error).toBe('name: Invalid input: expected string, received undefined');
  });

  it('refuses a NUL character in the name with 400 naming the field, on create and update', async () => {
    const owner = await registerUser(t.app);
    const created = await owner.client.post(base, { name: 'Grid\u0000Co', primary_owner_user_id: owner.id });
    expect(created.status).toBe(400);
    expect(created.body).toEqual(invalid('name: Must not contain the NUL character'));
    const updated = await shared.owner.client.put(`${base}/${shared.accountId}`, { name: 'Grid\u0000Co' });
    expect(updated.status).toBe(400);
    expect(updated.body).toEqual(invalid('name: Must not contain the NUL character'));
  });

  it('refuses an e-mail whose domain is no host name, as the reference does', async () => {
    const res = await shared.owner.client.put(`${base}/${shared.accountId}`, { email: 'energy@a-.example.com' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('email: Invalid email address'));
  });
});

describe('read, update, delete', () => {
  it('lets every member read; 403 for a non-member; 404 for an unknown id; 400 for a malformed id', async () => {
    const r = shared;
    for (const user of [r.owner, r.admin, r.member]) {
      const res = await user.client.get(`${base}/${r.accountId}`);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(r.accountId);
    }
    const outsider = await r.outsider.client.get(`${base}/${r.accountId}`);
    expect(outsider.status).toBe(403);
    expect(outsider.body).toEqual(FORBIDDEN_NOT_MEMBER);
    const unknown = await r.owner.client.get(`${base}/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFound('Organization'));
    const malformed = await r.owner.client.get(`${base}/123`);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error).toBe('id: Invalid UUID');
  });

  it.each([
    [{ a: { b: ['fine', 'x\u0000y'] } }, 'public_data.a.b.1'],
    [{ nested: { 'key\u0000': 1 } }, 'public_data.nested.key\u0000'],
  ])('refuses a NUL character inside public_data with 400 naming where it is', async (public_data, where) => {
    const r = await organizationWithRoles(t.app);
    const res = await r.owner.client.put(`${base}/${r.accountId}`, { public_data });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`${where}: Must not contain the NUL character`));
  });

  it('updates the mutable fields for OWNER and ADMIN, not for MEMBER or outsiders', async () => {
    const r = await organizationWithRoles(t.app);
    const res = await r.admin.client.put(`${base}/${r.accountId}`, {
      name: 'Renamed',
      email: 'ops@example.com',
      picture_url: 'https://example.com/logo.png',
      public_data: { region: 'Gauteng' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Renamed',
      email: 'ops@example.com',
      picture_url: 'https://example.com/logo.png',
      public_data: { region: 'Gauteng' },
    });
    const partial = await r.owner.client.put(`${base}/${r.accountId}`, { email: null });
    expect(partial.body.data).toMatchObject({ name: 'Renamed', email: null, public_data: { region: 'Gauteng' } });
    for (const user of [r.member, r.outsider]) {
      const denied = await user.client.put(`${base}/${r.accountId}`, { name: 'Hijacked' });
      expect(denied.status).toBe(403);
    }
    const after = await r.owner.client.get(`${base}/${r.accountId}`);
    expect(after.body.data.name).toBe('Renamed');
    const badEmail = await r.owner.client.put(`${base}/${r.accountId}`, { email: 'not-an-email' });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.error).toBe('email: Invalid email address');
  });

  it('deletes for the OWNER only, with its memberships', async () => {
    const r = await organizationWithRoles(t.app);
    const byAdmin = await r.admin.client.delete(`${base}/${r.accountId}`);
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error).toBe('Your role does not allow this action');
    const byOutsider = await r.outsider.client.delete(`${base}/${r.accountId}`);
    expect(byOutsider.status).toBe(403);
    const res = await r.owner.client.delete(`${base}/${r.accountId}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await r.owner.client.get(`${base}/${r.accountId}`)).status).toBe(404);
    const memberOrgs = await r.member.client.get('/api/v1/auth/organizations');
    expect(memberOrgs.body.data.map((o: { id: string }) => o.id)).not.toContain(r.accountId);
  });

  it('refuses to delete a personal account (400) and an organization with dependent records (409)', async () => {
    const owner = await registerUser(t.app);
    const personal = await owner.client.delete(`${base}/${owner.personalAccountId}`);
    expect(personal.status).toBe(400);
    expect(personal.body).toEqual(invalid('A personal account cannot be deleted'));
    const accountId = await createOrganization(owner);
    await insertTariff(t.db, accountId);
    const res = await owner.client.delete(`${base}/${accountId}`);
    expect(res.status).toBe(409);
    expect(res.body).toEqual(conflict('The organization has dependent records (building blocks, meters or tariffs)'));
    // Once its only tariff is deleted, the organization can go.
    await t.db.query('UPDATE tariffs SET deleted_at = now() WHERE account_id = $1', [accountId]);
    expect((await owner.client.delete(`${base}/${accountId}`)).status).toBe(204);
  });
});

describe('members', () => {
  it('lists members with role, e-mail and primary owner flag, paginated, with the total count', async () => {
    const r = shared;
    const res = await r.member.client.get(`${base}/${r.accountId}/members`, { sortBy: 'role', sortOrder: 'asc' });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(3);
    expect(res.body.data.map((m: { role: string }) => m.role)).toEqual(['ADMIN', 'MEMBER', 'OWNER']);
    expect(res.body.data[2]).toEqual({
      user_id: r.owner.id,
      account_id: r.accountId,
      role: 'OWNER',
      email: r.owner.email,
      is_primary_owner: true,
      created_at: expect.any(String),
    });
    const page = await r.owner.client.get(`${base}/${r.accountId}/members`, {
      limit: 1,
      page: 2,
      sortBy: 'role',
      sortOrder: 'asc',
    });
    expect(page.body.count).toBe(3);
    expect(page.body.data.map((m: { role: string }) => m.role)).toEqual(['MEMBER']);
    const search = await r.owner.client.get(`${base}/${r.accountId}/members`, { query: r.admin.email.toUpperCase() });
    expect(search.body.data.map((m: { user_id: string }) => m.user_id)).toEqual([r.admin.id]);
    expect((await r.outsider.client.get(`${base}/${r.accountId}/members`)).status).toBe(403);
  });

  it.each([
    [{ limit: 0 }, 'limit: Too small: expected number to be >=1'],
    [{ limit: 101 }, 'limit: Too big: expected number to be <=100'],
    [{ page: 0 }, 'page: Too small: expected number to be >=1'],
    [{ sortBy: 'password_hash' }, 'sortBy: Invalid option: expected one of "created_at"|"email"|"role"'],
    [{ sortOrder: 'up' }, 'sortOrder: Invalid option: expected one of "asc"|"desc"'],
  ])('rejects list parameters %j with 400', async (query, error) => {
    const owner = loner;
    const res = await owner.client.get(`${base}/${owner.personalAccountId}/members`, query);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(error));
  });

  it('adds a member (201); unknown user 404; already a member 409; bad role 400', async () => {
    const r = await organizationWithRoles(t.app);
    const newcomer = await registerUser(t.app);
    const res = await r.admin.client.post(`${base}/${r.accountId}/members`, { userId: newcomer.id, role: 'MEMBER' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      user_id: newcomer.id,
      account_id: r.accountId,
      role: 'MEMBER',
      email: newcomer.email,
      is_primary_owner: false,
      created_at: expect.any(String),
    });
    const again = await r.admin.client.post(`${base}/${r.accountId}/members`, { userId: newcomer.id, role: 'ADMIN' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('The user is already a member of this organization');
    const unknown = await r.admin.client.post(`${base}/${r.accountId}/members`, {
      userId: crypto.randomUUID(),
      role: 'MEMBER',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('User not found');
    const badRole = await r.admin.client.post(`${base}/${r.accountId}/members`, { userId: newcomer.id, role: 'KING' });
    expect(badRole.status).toBe(400);
    expect(badRole.body.error).toBe('role: Invalid option: expected one of "OWNER"|"ADMIN"|"MEMBER"');
  });

  it('lets only an OWNER grant or remove the OWNER role, and no MEMBER manage members', async () => {
    const r = await organizationWithRoles(t.app);
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    const adminGrantsOwner = await r.admin.client.post(`${base}/${r.accountId}/members`, {
      userId: a.id,
      role: 'OWNER',
    });
    expect(adminGrantsOwner.status).toBe(403);
    const memberAdds = await r.member.client.post(`${base}/${r.accountId}/members`, { userId: a.id, role: 'MEMBER' });
    expect(memberAdds.status).toBe(403);
    const outsiderAdds = await r.outsider.client.post(`${base}/${r.accountId}/members`, {
      userId: b.id,
      role: 'MEMBER',
    });
    expect(outsiderAdds.status).toBe(403);
    await addMember(r.owner, r.accountId, a, 'OWNER');
    const adminRemovesOwner = await r.admin.client.delete(`${base}/${r.accountId}/members/${a.id}`);
    expect(adminRemovesOwner.status).toBe(403);
    const memberRemoves = await r.member.client.delete(`${base}/${r.accountId}/members/${r.admin.id}`);
    expect(memberRemoves.status).toBe(403);
    const ownerRemoves = await r.owner.client.delete(`${base}/${r.accountId}/members/${a.id}`);
    expect(ownerRemoves.status).toBe(204);
    const list = await r.owner.client.get(`${base}/${r.accountId}/members`);
    expect(list.body.count).toBe(3);
  });

  it('protects the primary owner (409) and answers 404 for a user who is not a member', async () => {
    const r = shared;
    const primary = await r.owner.client.delete(`${base}/${r.accountId}/members/${r.owner.id}`);
    expect(primary.status).toBe(409);
    expect(primary.body).toEqual(conflict('The primary owner cannot be removed'));
    const stranger = await r.owner.client.delete(`${base}/${r.accountId}/members/${r.outsider.id}`);
    expect(stranger.status).toBe(404);
    expect(stranger.body.error).toBe('Member not found');
  });
});

describe('unauthenticated', () => {
  it.each([
    ['POST', base],
    ['GET', `${base}/${crypto.randomUUID()}`],
    ['PUT', `${base}/${crypto.randomUUID()}`],
    ['DELETE', `${base}/${crypto.randomUUID()}`],
    ['GET', `${base}/${crypto.randomUUID()}/members`],
    ['POST', `${base}/${crypto.randomUUID()}/members`],
    ['DELETE', `${base}/${crypto.randomUUID()}/members/${crypto.randomUUID()}`],
  ] as const)('%s %s answers 401', async (method, url) => {
    const res = await call(t.app, method, url, { body: method === 'POST' || method === 'PUT' ? {} : undefined });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Authentication required');
  });
});
