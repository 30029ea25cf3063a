import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, invalid, invalidQuery, notFound } from '../../test/helpers/envelopes.ts';
import { registerUser } from '../../test/helpers/factories.ts';
import { call } from '../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { registerErrorHandler } from './error-handler.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('envelope of failures', () => {
  it('answers an unknown route with a 404 envelope', async () => {
    const res = await call(t.app, 'GET', '/api/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound('Route GET /api/v1/nothing-here'));
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('body: Malformed JSON'));
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(failure('Payload too large', 'Request body is too large'));
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual(failure('Unsupported media type', 'Content type must be application/json'));
  });

  it('joins several validation issues with "; "', async () => {
    const res = await call(t.app, 'POST', '/api/v1/auth/signup', { body: { email: 'x', password: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      'email: Invalid email address; password: Invalid input: expected string, received number',
    );
  });

  it('says nothing of the cause of a 500', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw new Error('SELECT secret FROM table failed at /src/file.ts:12');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual(failure('Internal server error', 'Internal server error'));
    await app.close();
  });
});

describe('documents and probes', () => {
  it('serves the health probes without a token', async () => {
    expect((await call(t.app, 'GET', '/healthz')).body).toEqual({
      success: true,
      message: null,
      data: { status: 'ok' },
    });
    expect((await call(t.app, 'GET', '/readyz')).body).toEqual({
      success: true,
      message: null,
      data: { status: 'ready' },
    });
  });

  it('serves the OpenAPI 3.1 document generated from the route schemas', async () => {
    const res = await call(t.app, 'GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const login = res.body.paths['/api/v1/auth/login'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(
      res.body.paths['/api/v1/organizations/{id}/members'].get.parameters.map((p: { name: string }) => p.name),
    ).toEqual(expect.arrayContaining(['page', 'limit', 'query', 'sortBy', 'sortOrder', 'id']));
  });

  it('serves the interactive reference from local files', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    const bundle = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
  });

  it('sends security headers', async () => {
    const user = await registerUser(t.app);
    const res = await user.client.get('/api/v1/auth/organizations');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    const failure = await call(t.app, 'GET', '/api/v1/unknown');
    expect(failure.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('readiness without a database', () => {
  it('answers 503 on /readyz when the database is gone', async () => {
    const t2 = await startTestApp();
    await t2.db.close();
    const res = await call(t2.app, 'GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual(failure('Service unavailable', 'The database is unreachable'));
    await t2.app.close();
  });
});

describe('text the database cannot store', () => {
  it('answers 400 for a NUL character in a list search', async () => {
    const user = await registerUser(t.app);
    const res = await user.client.get(`/api/v1/organizations/${user.personalAccountId}/members`, { query: 'a\u0000b' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery('query: Must not contain the NUL character'));
  });
});
