import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { registerSecurityHeaders } from './security-headers.ts';

const POLICY =
  "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';frame-ancestors 'self';" +
  "img-src 'self' data:;object-src 'none';script-src 'self';script-src-attr 'none';" +
  "style-src 'self' https: 'unsafe-inline'";

describe('the content security policy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  it('does not upgrade requests to HTTPS over plain HTTP, on the reference page and the API', async () => {
    for (const url of ['/docs/', '/docs/static/swagger-ui-bundle.js', '/healthz', '/api/v1/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect({ url, policy: res.headers['content-security-policy'] }).toEqual({ url, policy: POLICY });
    }
  });

  it("ignores a client's X-Forwarded-Proto: the service trusts no proxy", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['content-security-policy']).toBe(POLICY);
  });

  it('upgrades requests to HTTPS when the request came over HTTPS', async () => {
    // Fastify reports HTTPS from a TLS socket or, when it trusts a proxy, from X-Forwarded-Proto.
    const app = Fastify({ trustProxy: true });
    registerSecurityHeaders(app);
    app.get('/', async () => 'ok');
    try {
      const https = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['content-security-policy']).toBe(`${POLICY};upgrade-insecure-requests`);
      expect(https.headers['cross-origin-opener-policy']).toBe('same-origin');
      const http = await app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers['content-security-policy']).toBe(POLICY);
      // A browser ignores the opener policy of a plain-HTTP origin, and logs an error.
      expect(http.headers['cross-origin-opener-policy']).toBeUndefined();
    } finally {
      await app.close();
    }
  });
});
