import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_SHEDDING } from '../../test/helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../../test/helpers/test-database.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { generateSigningKeys } from '../modules/auth/signing-keys.ts';
import type { App } from './types.ts';

let database: TestDatabase;
let app: App;
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  const config = loadConfig({
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    SEED_DEMO: 'false',
    ...NO_SHEDDING,
    CORS_ORIGINS: 'https://console.example.com',
  });
  app = await buildApp({ config, db: database.db, keys: generateSigningKeys(), logStream });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

describe('logs', () => {
  it('are JSON lines with a request id, and never carry a password or a token', async () => {
    const credentials = { email: 'logged@example.com', password: 'secret-password-123' };
    await app.inject({ method: 'POST', url: '/api/v1/auth/signup', payload: credentials });
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: credentials });
    const { access_token, refresh_token } = login.json().data;
    await app.inject({
      method: 'GET',
      url: '/api/v1/auth/organizations',
      headers: { authorization: `Bearer ${access_token}` },
    });
    await app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: { refresh_token } });

    const entries = lines.map(
      (line) => JSON.parse(line) as { reqId?: string; req?: { headers?: Record<string, string> } },
    );
    const requests = entries.filter((e) => e.req);
    expect(requests.length).toBeGreaterThanOrEqual(4);
    expect(requests.every((e) => typeof e.reqId === 'string' && e.reqId.length > 0)).toBe(true);
    const everything = lines.join('\n');
    for (const secret of [credentials.password, access_token, refresh_token]) expect(everything).not.toContain(secret);
  });
});

describe('request ids', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const logLinesOf = (id: string) =>
    lines.map((line) => JSON.parse(line) as { reqId?: string }).filter((e) => e.reqId === id);

  it('answers every request with a new id when the client sent none, and its log lines carry it', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/v1/meters' });
    expect(res.statusCode).toBe(401);
    const id = res.headers['x-request-id'] as string;
    expect(id).toMatch(UUID);
    expect(res.json().code).toBe('UNAUTHENTICATED');
    expect(logLinesOf(id).map((e) => (e as { msg?: string }).msg)).toEqual(['incoming request', 'request completed']);
  });

  it("echoes the client's valid id, in the answer and in the log lines", async () => {
    const id = 'client-1.trace:42_A';
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': id } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe(id);
    expect(logLinesOf(id)).toHaveLength(2);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with a space', 'two words'],
    ['with an encoded line break', 'id%0Aforged'],
    ['empty', ''],
  ])('replaces an invalid id (%s) by a new one', async (_case, sent) => {
    const res = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': sent } });
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(logLinesOf(sent)).toEqual([]);
  });

  it('lets a browser on an allowed origin send and read the id', async () => {
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v1/meters',
      headers: {
        origin: 'https://console.example.com',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'x-request-id',
      },
    });
    expect(preflight.headers['access-control-allow-headers']).toContain('x-request-id');
    const res = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { origin: 'https://console.example.com' },
    });
    expect(res.headers['access-control-expose-headers']).toContain('x-request-id');
  });
});
