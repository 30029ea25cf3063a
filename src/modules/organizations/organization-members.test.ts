import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, organizationWithRoles, registerUser } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const base = '/api/v1/organizations';

describe('adding a member by e-mail', () => {
  it('finds the user by e-mail in any case (201); an unknown e-mail 404; userId and email together or neither 400', async () => {
    const r = await organizationWithRoles(t.app);
    const newcomer = await registerUser(t.app);
    const res = await r.admin.client.post(`${base}/${r.accountId}/members`, {
      email: newcomer.email.toUpperCase(),
      role: 'MEMBER',
    });
    expect([res.status, res.body.data.user_id, res.body.data.email, res.body.data.role]).toEqual([
      201,
      newcomer.id,
      newcomer.email,
      'MEMBER',
    ]);
    const unknown = await r.admin.client.post(`${base}/${r.accountId}/members`, {
      email: 'nobody-here@example.com',
      role: 'MEMBER',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('User not found');
    for (const body of [{ role: 'MEMBER' }, { userId: newcomer.id, email: newcomer.email, role: 'MEMBER' }]) {
      const refused = await r.admin.client.post(`${base}/${r.accountId}/members`, body);
      expect(refused.status).toBe(400);
      expect(refused.body.error).toBe('userId: Give either userId or email');
    }
  });
});

describe("changing a member's role", () => {
  it('gives a member another role (200) and lists it', async () => {
    const r = await organizationWithRoles(t.app);
    const res = await r.admin.client.put(`${base}/${r.accountId}/members/${r.member.id}`, { role: 'ADMIN' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      user_id: r.member.id,
      account_id: r.accountId,
      role: 'ADMIN',
      email: r.member.email,
      is_primary_owner: false,
      created_at: expect.any(String),
    });
    const list = await r.owner.client.get(`${base}/${r.accountId}/members?query=${r.member.email}`);
    expect(list.body.data.map((m: { role: string }) => m.role)).toEqual(['ADMIN']);
  });

  it('lets only an OWNER make or unmake an OWNER, no MEMBER change roles, and keeps the primary owner (409)', async () => {
    const r = await organizationWithRoles(t.app);
    const other = await registerUser(t.app);
    await addMember(r.owner, r.accountId, other, 'OWNER');
    const url = (id: string) => `${base}/${r.accountId}/members/${id}`;
    const cases: [{ status: number; body: any }, number, string][] = [
      [await r.admin.client.put(url(r.member.id), { role: 'OWNER' }), 403, 'Only an OWNER may manage owners'],
      [await r.admin.client.put(url(other.id), { role: 'MEMBER' }), 403, 'Only an OWNER may manage owners'],
      [await r.member.client.put(url(r.admin.id), { role: 'MEMBER' }), 403, 'Your role does not allow this action'],
      [await r.owner.client.put(url(r.owner.id), { role: 'ADMIN' }), 409, "The primary owner's role cannot be changed"],
      [await r.owner.client.put(url(r.outsider.id), { role: 'ADMIN' }), 404, 'Member not found'],
      [
        await r.owner.client.put(url(r.member.id), { role: 'KING' }),
        400,
        'role: Invalid option: expected one of "OWNER"|"ADMIN"|"MEMBER"',
      ],
    ];
    expect(cases.map(([res]) => [res.status, res.body.error])).toEqual(
      cases.map(([, status, error]) => [status, error]),
    );
    const demoted = await r.owner.client.put(url(other.id), { role: 'MEMBER' });
    expect(demoted.status).toBe(200);
    expect(demoted.body.data.role).toBe('MEMBER');
  });
});
