import { randomUUID } from 'node:crypto';
import type { App } from '../../src/http/types.ts';
import { type Client, call, clientFor } from './http.ts';

export interface TestUser {
  id: string;
  email: string;
  password: string;
  token: string;
  refreshToken: string;
  personalAccountId: string;
  client: Client;
}

/** Signs a new user up and logs in, through the API. */
export async function registerUser(app: App, name = 'user'): Promise<TestUser> {
  const email = `${name}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'correct horse battery';
  const signup = await call(app, 'POST', '/api/v1/auth/signup', { body: { email, password } });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const login = await call(app, 'POST', '/api/v1/auth/login', { body: { email, password } });
  const { access_token, refresh_token, user } = login.body.data;
  const orgs = await call(app, 'GET', '/api/v1/auth/organizations', { token: access_token });
  const personal = orgs.body.data.find((o: { is_personal_account: boolean }) => o.is_personal_account);
  return {
    id: user.id,
    email,
    password,
    token: access_token,
    refreshToken: refresh_token,
    personalAccountId: personal.id,
    client: clientFor(app, access_token),
  };
}

/** A new organization owned by owner, through the API. */
export async function createOrganization(owner: TestUser, name = 'Acme Energy'): Promise<string> {
  const res = await owner.client.post('/api/v1/organizations', { name, primary_owner_user_id: owner.id });
  if (res.status !== 201) throw new Error(`organization create failed: ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function addMember(owner: TestUser, organizationId: string, user: TestUser, role: string): Promise<void> {
  const res = await owner.client.post(`/api/v1/organizations/${organizationId}/members`, { userId: user.id, role });
  if (res.status !== 201) throw new Error(`add member failed: ${JSON.stringify(res.body)}`);
}

/** An organization with an OWNER, an ADMIN, a MEMBER, and an outsider who belongs elsewhere. */
export async function organizationWithRoles(app: App) {
  const [owner, admin, member, outsider] = await Promise.all([
    registerUser(app, 'owner'),
    registerUser(app, 'admin'),
    registerUser(app, 'member'),
    registerUser(app, 'outsider'),
  ]);
  const accountId = await createOrganization(owner);
  await addMember(owner, accountId, admin, 'ADMIN');
  await addMember(owner, accountId, member, 'MEMBER');
  const otherAccountId = await createOrganization(outsider, 'Other Org');
  return { accountId, otherAccountId, owner, admin, member, outsider };
}

export type OrganizationWithRoles = Awaited<ReturnType<typeof organizationWithRoles>>;
