import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/helpers/envelopes.ts';
import { registerUser } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// A session is refreshed only by a page of the service's own origin (extensions §13.7): another
// port of the same host is same-site for the SameSite=Strict cookie, so the browser would send it.

let t: TestApp;
let withCors: TestApp;
let behindProxy: TestApp;
beforeAll(async () => {
  [t, withCors, behindProxy] = await Promise.all([
    startTestApp(),
    startTestApp({ CORS_ORIGINS: 'https://console.example.com, http://localhost:5173' }),
    startTestApp({ TRUST_PROXY: '127.0.0.1' }),
  ]);
});
afterAll(async () => Promise.all([t.close(), withCors.close(), behindProxy.close()]));

const HOST = '127.0.0.1:3000';
const REFUSED = failure('Forbidden', "A session is refreshed only from the service's own origin");

/** A refresh with the cookie a browser keeps, as a page sends it with `headers`. */
const refresh = (app: TestApp, token: string, headers: Record<string, string>) =>
  app.app.inject({
    method: 'POST',
    url: '/api/v1/auth/refresh',
    headers: { host: HOST, cookie: `ums_refresh_token=${token}`, ...headers },
  });

describe('refresh: only from the service’s own origin', () => {
  it('refuses a page of another port of the same host, leaving the cookie and its token alone', async () => {
    const user = await registerUser(t.app);
    const res = await refresh(t, user.refreshToken, {
      origin: 'http://127.0.0.1:9999',
      'sec-fetch-site': 'same-site',
    });
    expect([res.statusCode, res.json()]).toEqual([403, REFUSED]);
    expect(res.headers['set-cookie']).toBeUndefined();
    // The token was not spent: the console's own refresh still rotates it.
    const own = await refresh(t, user.refreshToken, { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' });
    expect(own.statusCode).toBe(200);
    expect(own.headers['set-cookie']).toContain(`ums_refresh_token=${own.json().data.refresh_token};`);
  });

  it.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['another scheme of the same host', { origin: `https://${HOST}` }],
    ['an opaque origin', { origin: 'null' }],
    ['a same-site request without Origin', { 'sec-fetch-site': 'same-site' }],
    ['a cross-site request', { 'sec-fetch-site': 'cross-site' }],
    ['the own origin said to be cross-site', { origin: `http://${HOST}`, 'sec-fetch-site': 'cross-site' }],
  ])('refuses %s with 403', async (_, headers) => {
    const user = await registerUser(t.app);
    const res = await refresh(t, user.refreshToken, headers);
    expect([res.statusCode, res.json()]).toEqual([403, REFUSED]);
  });

  it.each([
    ['an API client (neither header)', {}],
    ['a page of the own origin', { origin: `http://${HOST}`, 'sec-fetch-site': 'same-origin' }],
    ['a navigation typed by the user', { 'sec-fetch-site': 'none' }],
    ['the own origin on the default port', { host: '127.0.0.1', origin: 'http://127.0.0.1:80' }],
    ['the own origin over HTTPS behind a proxy', { origin: `https://${HOST}`, 'x-forwarded-proto': 'https' }],
  ])('takes %s', async (_, headers) => {
    const user = await registerUser(t.app);
    const res = await refresh(t, user.refreshToken, headers);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('takes an origin of CORS_ORIGINS, and no other', async () => {
    const user = await registerUser(withCors.app);
    const listed = await refresh(withCors, user.refreshToken, { origin: 'https://console.example.com' });
    expect(listed.statusCode, listed.body).toBe(200);
    const other = await refresh(withCors, listed.json().data.refresh_token, { origin: 'https://other.example.com' });
    expect([other.statusCode, other.json()]).toEqual([403, REFUSED]);
  });

  it('behind a proxy that forwards the host it was addressed as, takes that origin once TRUST_PROXY names the proxy', async () => {
    const proxied = {
      host: '10.0.0.2:3000',
      'x-forwarded-host': 'ums.example.com',
      'x-forwarded-proto': 'https',
      origin: 'https://ums.example.com',
      'sec-fetch-site': 'same-origin',
    };
    const trusted = await refresh(behindProxy, (await registerUser(behindProxy.app)).refreshToken, proxied);
    expect(trusted.statusCode, trusted.body).toBe(200);
    const untrusted = await refresh(t, (await registerUser(t.app)).refreshToken, proxied);
    expect([untrusted.statusCode, untrusted.json()]).toEqual([403, REFUSED]);
  });
});
