import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '../../../test/helpers/envelopes.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { isConsolePage } from './console.routes.ts';

const PAGE = '<!doctype html><title>console</title>';
/** What a browser sends when it navigates to a page. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the console at /', () => {
  let t: TestApp;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(directory, 'assets'));
    writeFileSync(join(directory, 'index.html'), PAGE);
    writeFileSync(join(directory, 'assets', 'index-abc123.js'), 'console.log(1);');
    t = await startTestApp({}, { consoleDirectory: directory });
  });
  afterAll(async () => {
    await t.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('serves its page at / without a token, checked on every visit', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: BROWSER });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(PAGE);
  });

  it('serves its assets, named by their content, to be kept for good', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("answers its own pages' paths with its page, so that a reload or a link opens them", async () => {
    for (const url of ['/buildings/12', '/tariffs/3?cloned=8', '/sign-in', '/no-such-page']) {
      const res = await t.app.inject({ method: 'GET', url, headers: BROWSER });
      expect({ url, status: res.statusCode, body: res.body, cache: res.headers['cache-control'] }).toEqual({
        url,
        status: 200,
        body: PAGE,
        cache: 'no-cache',
      });
    }
    const html = await t.app.inject({ method: 'GET', url: '/buildings', headers: { accept: 'TEXT/HTML' } });
    expect(html.body).toBe(PAGE);
  });

  it('answers a path outside the API with the 404 envelope to a client that does not ask for a page', async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }, { accept: 'text/plain' }]) {
      for (const url of ['/buildings/12', '/tarifs', '/sign-in']) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect({ url, headers, status: res.statusCode, body: res.json() }).toEqual({
          url,
          headers,
          status: 404,
          body: notFound(`Route GET ${url}`),
        });
      }
    }
  });

  it('never answers a service path with the page, in any case, even to a browser', async () => {
    for (const url of [
      '/HEALTHZ',
      '/API/V1/TARIFFS',
      '/Api',
      '/Docs/nothing',
      '/METRICS/x',
      '/ReadyZ',
      '/.git/config',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: BROWSER });
      expect({ url, status: res.statusCode, body: res.json() }).toEqual({
        url,
        status: 404,
        body: notFound(`Route GET ${url}`),
      });
    }
  });

  it('keeps the 404 envelope for unknown API routes and missing files', async () => {
    const api = await call(t.app, 'GET', '/api/v1/nothing-here');
    expect(api.status).toBe(404);
    expect(api.body).toEqual(notFound('Route GET /api/v1/nothing-here'));
    for (const url of ['/api', '/assets/missing.js', '/docs/nothing', '/favicon.ico']) {
      const res = await call(t.app, 'GET', url);
      expect({ url, status: res.status, success: res.body.success }).toEqual({ url, status: 404, success: false });
    }
    const post = await call(t.app, 'POST', '/buildings', { body: {} });
    expect(post.status).toBe(404);
  });

  it('leaves the API, its documents and the service routes as they are', async () => {
    expect((await call(t.app, 'GET', '/healthz')).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/v1/auth/organizations')).status).toBe(401);
    const openapi = await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(Object.keys(JSON.parse(openapi.body).paths).some((path) => !path.startsWith('/api/'))).toBe(false);
  });

  it('tells console pages from the service paths', () => {
    expect(['/', '/buildings', '/meters/3', '/catalogue?query=x', '/apis', '/healthzz'].every(isConsolePage)).toBe(
      true,
    );
    const service = ['/api/v1/x', '/api', '/docs', '/metrics', '/healthz', '/readyz', '/.well-known/jwks.json'];
    expect(
      [...service, ...service.map((path) => path.toUpperCase()), '/a/b.js', '/.env', '/.git/config'].some(
        isConsolePage,
      ),
    ).toBe(false);
  });
});

describe('the console before it is built', () => {
  it('says at / how to build it, and the API works as usual', async () => {
    const t = await startTestApp({}, { consoleDirectory: join(tmpdir(), 'no-console-here') });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
      expect((await call(t.app, 'GET', '/buildings')).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
