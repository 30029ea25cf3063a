import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type TestUser } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';

const DECOMPRESS = { br: brotliDecompressSync, gzip: gunzipSync } as const;
const SWAGGER_UI_BUNDLE = join(
  dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')),
  'static/swagger-ui-bundle.js',
);

describe('compression of answers', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    // The service unbuilt: Swagger UI's files compressed on each request.
    t = await startTestApp({}, { swaggerUiDirectory: join(tmpdir(), 'no-swagger-ui-build') });
    user = await registerUser(t.app);
  });
  afterAll(async () => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${user.token}`, ...headers } });

  it.each(['br', 'gzip'] as const)(
    'sends a JSON answer over 1 KB with %s, as the client accepts it',
    async (encoding) => {
      const plain = await get('/api/v1/tou_schedules');
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.rawPayload.length).toBeGreaterThan(1024);

      const compressed = await get('/api/v1/tou_schedules', { 'accept-encoding': encoding });
      expect(compressed.statusCode).toBe(200);
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers.vary).toContain('accept-encoding');
      expect(compressed.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(DECOMPRESS[encoding](compressed.rawPayload).toString('utf8')).toBe(plain.body);
    },
  );

  it.each(['br', 'gzip'] as const)(
    'sends an answer over 8 KB with %s in one piece of known length, compressed off the event loop',
    async (encoding) => {
      const plain = await get('/api/v1/openapi.json');
      expect(plain.rawPayload.length).toBeGreaterThan(8192);
      const compressed = await get('/api/v1/openapi.json', { 'accept-encoding': encoding });
      expect(compressed.statusCode).toBe(200);
      expect(compressed.headers['content-encoding']).toBe(encoding);
      expect(compressed.headers.vary).toBe('accept-encoding');
      expect(compressed.headers['transfer-encoding']).toBeUndefined();
      expect(compressed.headers['content-length']).toBe(String(compressed.rawPayload.length));
      expect(DECOMPRESS[encoding](compressed.rawPayload).toString('utf8')).toBe(plain.body);
    },
  );

  it('prefers brotli when the client accepts both, and follows its weights', async () => {
    expect(
      (await get('/api/v1/tou_schedules', { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding'],
    ).toBe('br');
    const weighted = await get('/api/v1/tou_schedules', { 'accept-encoding': 'br;q=0.5, gzip' });
    expect(weighted.headers['content-encoding']).toBe('gzip');
  });

  it('sends an answer as it is when the client accepts no compression or it is under 1 KB', async () => {
    const identity = await get('/api/v1/tou_schedules', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const small = await get('/healthz', { 'accept-encoding': 'br, gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual(JSON.parse(small.body));
    const failure = await get('/api/v1/nothing-here', { 'accept-encoding': 'br, gzip' });
    expect(failure.statusCode).toBe(404);
    expect(failure.headers['content-encoding']).toBeUndefined();
  });

  it("compresses the API description and Swagger UI's script, unbuilt", async () => {
    const document = await get('/api/v1/openapi.json', { 'accept-encoding': 'gzip' });
    expect(document.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(document.rawPayload).toString('utf8')).openapi).toBe('3.1.0');
    const bundle = await get('/docs/static/swagger-ui-bundle.js', { 'accept-encoding': 'br' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(bundle.rawPayload).equals(readFileSync(SWAGGER_UI_BUNDLE))).toBe(true);
  });
});

describe('pre-compressed static files', () => {
  let t: TestApp;
  let built: string;
  // The build's copies, told apart from what compressing the file on the fly would give.
  const BUILT_BR = brotliCompressSync('/* the build brotli copy */');
  const BUILT_GZ = gzipSync('/* the build gzip copy */');
  const SCRIPT = 'console.log("the console");'.repeat(100);

  beforeAll(async () => {
    built = mkdtempSync(join(tmpdir(), 'built-'));
    const swaggerUi = join(built, 'swagger-ui');
    const console = join(built, 'console');
    mkdirSync(swaggerUi);
    mkdirSync(join(console, 'assets'), { recursive: true });
    writeFileSync(join(swaggerUi, 'swagger-ui-bundle.js'), readFileSync(SWAGGER_UI_BUNDLE));
    writeFileSync(join(swaggerUi, 'swagger-ui-bundle.js.br'), BUILT_BR);
    writeFileSync(join(swaggerUi, 'swagger-ui-bundle.js.gz'), BUILT_GZ);
    writeFileSync(join(console, 'index.html'), '<!doctype html>');
    writeFileSync(join(console, 'assets', 'index-abc.js'), SCRIPT);
    writeFileSync(join(console, 'assets', 'index-abc.js.br'), BUILT_BR);
    t = await startTestApp({}, { swaggerUiDirectory: swaggerUi, consoleDirectory: console });
  });
  afterAll(async () => {
    await t.close();
    rmSync(built, { recursive: true, force: true });
  });

  it.each([
    ['br', BUILT_BR],
    ['gzip', BUILT_GZ],
  ] as const)("sends Swagger UI's script as the build compressed it with %s", async (encoding, copy) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/docs/static/swagger-ui-bundle.js',
      headers: { 'accept-encoding': encoding },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers.vary).toContain('accept-encoding');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    expect(res.rawPayload.equals(copy)).toBe(true);
  });

  it('serves the reference page the document kept as bytes, the same as /api/v1/openapi.json', async () => {
    const headers = { 'accept-encoding': 'br' };
    const [page, api] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/docs/json', headers }),
      t.app.inject({ method: 'GET', url: '/api/v1/openapi.json', headers }),
    ]);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-encoding']).toBe('br');
    expect(page.rawPayload.equals(api.rawPayload)).toBe(true);
  });

  it("sends Swagger UI's script as it is to a client that accepts no compression", async () => {
    const res = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.equals(readFileSync(SWAGGER_UI_BUNDLE))).toBe(true);
  });

  it("sends the console's script as the build compressed it, or compressed on the fly without a copy", async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/index-abc.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.rawPayload.equals(BUILT_BR)).toBe(true);
    const gzip = await t.app.inject({
      method: 'GET',
      url: '/assets/index-abc.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(SCRIPT);
  });
});

describe('compression beside CORS', () => {
  const ORIGIN = 'https://console.example.org';
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: ORIGIN });
  });
  afterAll(async () => t.close());

  it.each(['br', 'gzip'] as const)('keeps Origin in Vary when it adds accept-encoding (%s)', async (encoding) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/openapi.json',
      headers: { origin: ORIGIN, 'accept-encoding': encoding },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(res.headers.vary).toBe('Origin, accept-encoding');
  });
});
