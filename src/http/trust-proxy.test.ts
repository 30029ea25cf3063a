import { describe, expect, it } from 'vitest';
import { failure } from '../../test/helpers/envelopes.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { loadConfig } from '../config.ts';

// Behind a reverse proxy every request comes from the proxy's address: with TRUST_PROXY the client
// address is the forwarded one, so that each per-client limit (here the sign-in rate limit) keys
// on the client, not on the proxy (extensions §13.7). Without it, X-Forwarded-For is ignored.

const LIMIT = 20;
const credentials = { email: 'proxied@example.com', password: 'correct horse battery' };
const TOO_MANY = failure('Too many requests', expect.stringMatching(/^Rate limit exceeded/));

/** An app with a sign-in limit of 20 a minute and one user, signed up from an address of its own. */
async function appWith(env: Record<string, string>): Promise<TestApp> {
  const t = await startTestApp({ AUTH_RATE_LIMIT_PER_MIN: String(LIMIT), ...env });
  const signup = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/signup',
    remoteAddress: '192.0.2.250',
    payload: credentials,
  });
  expect(signup.statusCode).toBe(200);
  return t;
}

/** A sign-in through the proxy at `proxy` for the client `client` (none: no X-Forwarded-For). */
const signIn = (t: TestApp, proxy: string, client: string | undefined, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    remoteAddress: proxy,
    headers: client === undefined ? {} : { 'x-forwarded-for': client },
    payload: { ...credentials, password },
  });

/** 22 wrong passwords, each from its own forwarded address, through the proxy at 127.0.0.1. */
async function wrongPasswordsFrom22Clients(t: TestApp) {
  const statuses = [];
  for (let i = 1; i <= 22; i++)
    statuses.push((await signIn(t, '127.0.0.1', `198.51.100.${i}`, 'wrong password')).statusCode);
  return statuses;
}

describe('TRUST_PROXY', () => {
  it.each([
    ['true', 'true'],
    ['a hop count', '1'],
    ["the proxy's address", '127.0.0.1'],
    ['a list of CIDRs', '10.0.0.0/8, 127.0.0.0/8'],
  ])('set to %s: wrong passwords from 22 forwarded addresses do not lock another one out', async (_, value) => {
    const t = await appWith({ TRUST_PROXY: value });
    try {
      expect(await wrongPasswordsFrom22Clients(t)).toEqual(Array(22).fill(401));
      const neighbour = await signIn(t, '127.0.0.1', '203.0.113.7', credentials.password);
      expect(neighbour.statusCode, neighbour.body).toBe(200);
      // The limit still holds for one forwarded address.
      for (let i = 1; i < LIMIT; i++) await signIn(t, '127.0.0.1', '198.51.100.1', 'wrong password');
      expect((await signIn(t, '127.0.0.1', '198.51.100.1', 'wrong password')).json()).toEqual(TOO_MANY);
    } finally {
      await t.close();
    }
  });

  it('off (the default): X-Forwarded-For is ignored, the limit keys on the address the request came from', async () => {
    const t = await appWith({});
    try {
      expect(await wrongPasswordsFrom22Clients(t)).toEqual([...Array(LIMIT).fill(401), 429, 429]);
      const neighbour = await signIn(t, '127.0.0.1', '203.0.113.7', credentials.password);
      expect([neighbour.statusCode, neighbour.json()]).toEqual([429, TOO_MANY]);
      expect((await signIn(t, '127.0.0.2', undefined, credentials.password)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("trusts X-Forwarded-For only from the proxies' addresses", async () => {
    const t = await appWith({ TRUST_PROXY: '10.0.0.1' });
    try {
      // From 127.0.0.1, not a trusted proxy: every forwarded address counts as 127.0.0.1.
      expect(await wrongPasswordsFrom22Clients(t)).toEqual([...Array(LIMIT).fill(401), 429, 429]);
      const forwarded = await signIn(t, '10.0.0.1', '203.0.113.7', credentials.password);
      expect(forwarded.statusCode, forwarded.body).toBe(200);
    } finally {
      await t.close();
    }
  });

  it.each(['0', 'yes', '300.1.2.3', '10.0.0.0/33', '10.0.0.1,'])('refuses TRUST_PROXY=%s at start', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/^Invalid configuration: TRUST_PROXY: /);
  });
});
