import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  const config = loadConfig({ LOG_LEVEL: 'info', AUTH_RATE_LIMIT_PER_MIN: '0', SEED_DEMO: 'false' });
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
