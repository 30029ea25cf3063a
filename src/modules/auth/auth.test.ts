import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, failure, invalid, invalidPath } from '../../../test/helpers/envelopes.ts';
import { addMember, createOrganization, registerUser } from '../../../test/helpers/factories.ts';
import { call, clientFor } from '../../../test/helpers/http.ts';
import { SERVICE_ROLE_KEY, startTestApp, TEST_SIGNING_KEYS, type TestApp } from '../../../test/helpers/test-app.ts';
import { generateSigningKeys } from './signing-keys.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('signup', () => {
  it('creates the user and a personal account, and returns no tokens', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/signup', {
      body: { email: 'New.Person@Example.com', password: 'long enough' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: { user: { id: expect.any(String), email: 'new.person@example.com', created_at: expect.any(String) } },
    });
    expect(res.body.data.access_token).toBeUndefined();
    const login = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'new.person@example.com', password: 'long enough' },
    });
    const orgs = await clientFor(t.app, login.body.data.access_token).get('/api/v1/auth/organizations');
    expect(orgs.body.data).toEqual([
      { id: expect.any(String), name: 'new.person@example.com', is_personal_account: true, role: 'OWNER' },
    ]);
    expect(orgs.body.count).toBe(1);
  });

  it('answers 401 for an e-mail already registered, whatever its case', async () => {
    await call(t.app, 'POST', '/api/v1/auth/signup', { body: { email: 'twice@example.com', password: 'password1' } });
    const res = await call(t.app, 'POST', '/api/v1/auth/signup', {
      body: { email: 'TWICE@example.com', password: 'password2' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(failure('Unauthorized', 'User already registered', 'EMAIL_TAKEN'));
  });

  it('takes a local part of 64 characters, the most RFC 5321 allows', async () => {
    const email = `${'b'.repeat(64)}@example.com`;
    const res = await call(t.app, 'POST', '/api/v1/auth/signup', { body: { email, password: 'password1' } });
    expect(res.status).toBe(200);
    expect(res.body.data.user.email).toBe(email);
  });

  it.each([
    [{ email: 'not-an-email', password: 'password1' }, 'email: Invalid email address'],
    // A domain label that ends (or starts) with a hyphen is no host name: not a `format: email`.
    [{ email: 'probe@a-.example.com', password: 'password1' }, 'email: Invalid email address'],
    [{ email: 'probe@-a.example.com', password: 'password1' }, 'email: Invalid email address'],
    // A local part is at most 64 characters (RFC 5321), as `format: email` reads it.
    [{ email: `${'a'.repeat(65)}@example.com`, password: 'password1' }, 'email: Invalid email address'],
    [{ email: 'a@example.com', password: 'short' }, 'password: Too small: expected string to have >=8 characters'],
    [
      { email: 'a@example.com', password: 'x'.repeat(129) },
      'password: Too big: expected string to have <=128 characters',
    ],
    [{ password: 'password1' }, 'email: Invalid input: expected string, received undefined'],
  ])('rejects %j with 400 naming the field', async (body, error) => {
    const res = await call(t.app, 'POST', '/api/v1/auth/signup', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
  });
});

describe('login', () => {
  it('returns a session with both tokens, expiry and the user', async () => {
    await call(t.app, 'POST', '/api/v1/auth/signup', { body: { email: 'login@example.com', password: 'password1' } });
    const before = Math.floor(t.clock.now().getTime() / 1000);
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'login@example.com', password: 'password1' },
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    const after = Math.floor(t.clock.now().getTime() / 1000);
    expect(data).toMatchObject({
      access_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      refresh_token: expect.any(String),
      expires_in: 3600,
      user: { id: expect.any(String), email: 'login@example.com', created_at: expect.any(String) },
    });
    // The token's own times: issued during the request, valid for exactly expires_in seconds.
    const { iat, exp } = decodeJwt(data.access_token);
    expect(iat).toBeGreaterThanOrEqual(before);
    expect(iat).toBeLessThanOrEqual(after);
    expect(exp).toBe(iat! + data.expires_in);
    expect(data.expires_at).toBe(exp);
  });

  it.each([
    ['a wrong password', 'login@example.com', 'wrong-password'],
    ['an unknown e-mail', 'nobody@example.com', 'password1'],
  ])('answers 401 for %s', async (_case, email, password) => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email, password } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(failure('Unauthorized', 'Invalid login credentials'));
  });

  it('answers 400 for a body without password', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: 'login@example.com' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('password: Invalid input: expected string, received undefined');
  });
});

describe('refresh', () => {
  it('rotates the pair: the new tokens work, and the old refresh token is spent', async () => {
    const user = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([
      'access_token',
      'expires_at',
      'refresh_token',
      'token_type',
      'user',
    ]);
    expect(res.body.data.refresh_token).not.toBe(user.refreshToken);
    expect(res.body.data.user.id).toBe(user.id);
    const orgs = await clientFor(t.app, res.body.data.access_token).get('/api/v1/auth/organizations');
    expect(orgs.status).toBe(200);
  });

  it('revokes the whole session when a spent refresh token is presented again', async () => {
    const user = await registerUser(t.app);
    const first = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.refreshToken } });
    const reuse = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.error).toBe('Refresh token already used; the session has been revoked');
    // The token issued by the legitimate rotation is revoked with the session.
    const next = await call(t.app, 'POST', '/api/v1/auth/refresh', {
      body: { refresh_token: first.body.data.refresh_token },
    });
    expect(next.status).toBe(401);
    // Another login of the same user is a separate session and still works.
    const other = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    const rotated = await call(t.app, 'POST', '/api/v1/auth/refresh', {
      body: { refresh_token: other.body.data.refresh_token },
    });
    expect(rotated.status).toBe(200);
  });

  it('answers 401 for an unknown or expired refresh token and 400 for a missing one', async () => {
    const unknown = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: 'nope' } });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(failure('Unauthorized', 'Invalid refresh token'));
    const user = await registerUser(t.app);
    t.clock.advance(2592000 + 1);
    try {
      const expired = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.refreshToken } });
      expect(expired.status).toBe(401);
      expect(expired.body.error).toBe('Refresh token expired');
    } finally {
      t.clock.advance(-(2592000 + 1));
    }
    const missing = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('refresh_token: Invalid input: expected string, received undefined');
  });
});

describe('logout', () => {
  it('revokes the session: its refresh token stops working at once', async () => {
    const user = await registerUser(t.app);
    const res = await user.client.post('/api/v1/auth/logout');
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    const refresh = await call(t.app, 'POST', '/api/v1/auth/refresh', { body: { refresh_token: user.refreshToken } });
    expect(refresh.status).toBe(401);
  });
});

describe('refresh cookie', () => {
  const COOKIE_ATTRIBUTES = 'Path=/api/v1/auth/refresh; HttpOnly; SameSite=Strict';
  const CLEARED = `ums_refresh_token=; Max-Age=0; ${COOKIE_ATTRIBUTES.replace('; HttpOnly', '; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly')}`;

  async function signIn(headers: Record<string, string> = {}) {
    const user = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers,
      payload: { email: user.email, password: user.password },
    });
    return { user, res, body: res.json().data };
  }

  const refreshWithCookie = (token: string, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/refresh',
      headers: { cookie: `ums_refresh_token=${token}` },
      ...(payload ? { payload } : {}),
    });

  it('is set at sign-in: the refresh token, HttpOnly, SameSite=Strict, for the refresh path only, as long as the token lives', async () => {
    const { res, body } = await signIn();
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBe(
      `ums_refresh_token=${body.refresh_token}; Max-Age=2592000; ${COOKIE_ATTRIBUTES}`,
    );
  });

  it('is Secure when the request came over HTTPS', async () => {
    const { res, body } = await signIn({ 'x-forwarded-proto': 'https' });
    expect(res.headers['set-cookie']).toBe(
      `ums_refresh_token=${body.refresh_token}; Max-Age=2592000; ${COOKIE_ATTRIBUTES.replace('HttpOnly', 'HttpOnly; Secure')}`,
    );
  });

  it('refreshes the session without a body, setting the next token in the cookie; a spent cookie is refused and cleared', async () => {
    const { body } = await signIn();
    const res = await refreshWithCookie(body.refresh_token);
    expect(res.statusCode).toBe(200);
    const next = res.json().data;
    expect(next.user.email).toBe(body.user.email);
    expect(next.refresh_token).not.toBe(body.refresh_token);
    expect(res.headers['set-cookie']).toBe(
      `ums_refresh_token=${next.refresh_token}; Max-Age=2592000; ${COOKIE_ATTRIBUTES}`,
    );
    expect((await clientFor(t.app, next.access_token).get('/api/v1/auth/organizations')).status).toBe(200);

    const spent = await refreshWithCookie(body.refresh_token);
    expect(spent.statusCode).toBe(401);
    expect(spent.json()).toEqual(failure('Unauthorized', 'Refresh token already used; the session has been revoked'));
    expect(spent.headers['set-cookie']).toBe(CLEARED);
  });

  it('takes the token of the body before the cookie (API clients), leaving the cookie alone when the body is refused', async () => {
    const { body } = await signIn();
    const other = await signIn();
    const res = await refreshWithCookie(other.body.refresh_token, { refresh_token: body.refresh_token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.email).toBe(body.user.email);
    const refused = await refreshWithCookie(other.body.refresh_token, { refresh_token: 'nope' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect((await refreshWithCookie(other.body.refresh_token)).statusCode).toBe(200);
  });

  it('without body or cookie, is 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('refresh_token: Invalid input: expected string, received undefined'));
  });

  it('is cleared at sign-out, and the token it held stops working', async () => {
    const { body } = await signIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/logout',
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['set-cookie']).toBe(CLEARED);
    expect((await refreshWithCookie(body.refresh_token)).statusCode).toBe(401);
  });
});

describe('bearer token', () => {
  const BEARER_INVALID = 'Bearer error="invalid_token", error_description="Invalid bearer token"';
  const INVALID_TOKEN = failure('Authentication required', 'Invalid bearer token');

  /** A token signed with the app's own key, with or without an expiry. */
  async function signWithAppKey(user: { id: string; email: string }, withExpiry: boolean) {
    const jwt = new SignJWT({ email: user.email, session_id: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'EdDSA', kid: TEST_SIGNING_KEYS.kid, typ: 'JWT' })
      .setSubject(user.id)
      .setIssuer('utility-management-service')
      .setIssuedAt();
    if (withExpiry) jwt.setExpirationTime('1h');
    return jwt.sign(TEST_SIGNING_KEYS.privateKey);
  }

  it('answers 401 without a token, with a bare Bearer challenge', async () => {
    const res = await call(t.app, 'GET', '/api/v1/auth/organizations');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(AUTH_REQUIRED);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers 401 invalid_token for a malformed token', async () => {
    const res = await call(t.app, 'GET', '/api/v1/auth/organizations', { token: 'not-a-jwt' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect(res.headers['www-authenticate']).toBe(BEARER_INVALID);
  });

  it('answers 401 for a token signed by another key', async () => {
    const user = await registerUser(t.app);
    const forged = await new SignJWT({ email: user.email, session_id: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'EdDSA' })
      .setSubject(user.id)
      .setIssuer('utility-management-service')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(generateSigningKeys().privateKey);
    const res = await call(t.app, 'GET', '/api/v1/auth/organizations', { token: forged });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect(res.headers['www-authenticate']).toBe(BEARER_INVALID);
  });

  it('refuses a token without expiry even when the app signed it', async () => {
    const user = await registerUser(t.app);
    const withExpiry = await signWithAppKey(user, true);
    expect((await call(t.app, 'GET', '/api/v1/auth/organizations', { token: withExpiry })).status).toBe(200);
    const res = await call(t.app, 'GET', '/api/v1/auth/organizations', { token: await signWithAppKey(user, false) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect(res.headers['www-authenticate']).toBe(BEARER_INVALID);
  });

  it('refuses a token issued more than 60 s in the future or without an issue time; one up to 60 s ahead is clock skew', async () => {
    const user = await registerUser(t.app);
    /** A token of the app's key issued `seconds` from now (none: without iat), valid for an hour after. */
    const issuedIn = (seconds: number | undefined) => {
      const iat = Math.floor(t.clock.now().getTime() / 1000) + (seconds ?? 0);
      const jwt = new SignJWT({ email: user.email, session_id: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'EdDSA', kid: TEST_SIGNING_KEYS.kid, typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer('utility-management-service')
        .setExpirationTime(iat + 3600);
      if (seconds !== undefined) jwt.setIssuedAt(iat);
      return jwt.sign(TEST_SIGNING_KEYS.privateKey);
    };
    const ahead = await call(t.app, 'GET', '/api/v1/auth/organizations', { token: await issuedIn(60) });
    expect(ahead.status).toBe(200);
    for (const seconds of [90, undefined]) {
      const res = await call(t.app, 'GET', '/api/v1/auth/organizations', { token: await issuedIn(seconds) });
      expect([res.status, res.body], String(seconds)).toEqual([401, INVALID_TOKEN]);
      expect(res.headers['www-authenticate']).toBe(BEARER_INVALID);
    }
  });

  it('answers 401 for an expired token and says it expired, also for a token used before', async () => {
    const user = await registerUser(t.app);
    t.clock.advance(3601);
    try {
      const res = await user.client.get('/api/v1/auth/organizations');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(failure('Authentication required', 'The access token has expired'));
      expect(res.headers['www-authenticate']).toBe(
        'Bearer error="invalid_token", error_description="The access token has expired"',
      );
    } finally {
      t.clock.advance(-3601);
    }
  });

  it('answers 401 for an expired token never seen before', async () => {
    const user = await registerUser(t.app);
    const fresh = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: user.email, password: user.password },
    });
    t.clock.advance(3601);
    try {
      const res = await clientFor(t.app, fresh.body.data.access_token).get('/api/v1/auth/organizations');
      expect(res.status).toBe(401);
      expect(res.body).toEqual(failure('Authentication required', 'The access token has expired'));
    } finally {
      t.clock.advance(-3601);
    }
  });

  it('challenges a wrong service-role key with invalid_token', async () => {
    const res = await call(t.app, 'GET', '/api/v1/admin/users', { token: 'not-the-service-role-key' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect(res.headers['www-authenticate']).toBe(BEARER_INVALID);
    const none = await call(t.app, 'GET', '/api/v1/admin/users');
    expect(none.body).toEqual(AUTH_REQUIRED);
    expect(none.headers['www-authenticate']).toBe('Bearer');
  });

  it('carries a Bearer challenge on every 401, also for failed credentials', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: 'nobody@example.com', password: 'password1' },
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('comes before validation: an invalid body without a token is 401', async () => {
    const res = await call(t.app, 'POST', '/api/v1/organizations', { body: { name: 5 } });
    expect(res.status).toBe(401);
  });

  it('is verifiable with the published key set', async () => {
    const res = await call(t.app, 'GET', '/.well-known/jwks.json');
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual([
      { kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), alg: 'EdDSA', use: 'sig' },
    ]);
  });
});

describe('organizations of a user', () => {
  it('lists the personal account first, then the others oldest first, also those older than the user', async () => {
    const alice = await registerUser(t.app, 'alice');
    const older = await createOrganization(alice, 'Older than Bob');
    const bob = await registerUser(t.app, 'bob');
    await addMember(alice, older, bob, 'MEMBER');
    const newer = await createOrganization(bob, 'Newer');
    const res = await bob.client.get('/api/v1/auth/organizations');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: { id: string }) => o.id)).toEqual([bob.personalAccountId, older, newer]);
  });

  it('lists only the organizations the requester shares with that user, with that user role', async () => {
    const alice = await registerUser(t.app, 'alice');
    const bob = await registerUser(t.app, 'bob');
    const shared = await createOrganization(alice, 'Shared');
    await createOrganization(bob, 'Bob only');
    await addMember(alice, shared, bob, 'MEMBER');
    const res = await alice.client.get(`/api/v1/auth/users/${bob.id}/organizations`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: [
        {
          id: shared,
          name: 'Shared',
          is_personal_account: false,
          role: 'MEMBER',
          user_id: bob.id,
          requested_by: alice.id,
        },
      ],
      count: 1,
    });
  });

  it('answers 400 for a malformed userId', async () => {
    const user = await registerUser(t.app);
    const res = await user.client.get('/api/v1/auth/users/not-a-uuid/organizations');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidPath('userId: Invalid UUID'));
  });
});

describe('admin users (service role)', () => {
  it('creates, lists and deletes users with the service-role key only', async () => {
    const svc = clientFor(t.app, SERVICE_ROLE_KEY);
    const created = await svc.post('/api/v1/admin/users', { email: 'svc@example.com', password: 'password1' });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.any(String),
      email: 'svc@example.com',
      created_at: expect.any(String),
    });
    const listed = await svc.get('/api/v1/admin/users', { query: 'svc@' });
    expect(listed.body.count).toBe(1);
    expect(listed.body.data[0].email).toBe('svc@example.com');
    const user = await registerUser(t.app);
    const forbiddenForUsers = await user.client.get('/api/v1/admin/users');
    expect(forbiddenForUsers.status).toBe(401);
    const removed = await svc.delete(`/api/v1/admin/users/${created.body.data.id}`);
    expect(removed.status).toBe(204);
    const again = await svc.delete(`/api/v1/admin/users/${created.body.data.id}`);
    expect(again.status).toBe(404);
  });

  it('does not exist when no service-role key is configured', async () => {
    const plain = await startTestApp({ SERVICE_ROLE_KEY: '' });
    try {
      const res = await call(plain.app, 'GET', '/api/v1/admin/users', { token: SERVICE_ROLE_KEY });
      expect(res.status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
