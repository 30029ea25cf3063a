import { Collection } from 'postman-collection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/helpers/envelopes.ts';
import { registerUser } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('sample request collection', () => {
  it('is a Postman v2.1 collection of every documented operation, with base-URL, token and sample variables', async () => {
    const fetched = await t.app.inject({ url: '/api/v1/collection.json', headers: { host: 'ums.example.com:8080' } });
    expect(fetched.statusCode).toBe(200);
    const res = { body: fetched.json() };
    const collection = new Collection(res.body);
    expect(res.body.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.auth?.type).toBe('bearer');
    const variables = collection.variables.toObject();
    // The address it was fetched from, not the one the server listens on (0.0.0.0 for all addresses).
    expect(variables).toMatchObject({ baseUrl: 'http://ums.example.com:8080', bearerToken: '', serviceRoleKey: '' });
    // Without the demo, the variables hold the reference's examples.
    expect(variables).toMatchObject({ meter_sn: 'DEMO-GRID-001', tariff_id: '1001', building_block_id: '1' });

    const openapi = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
    const documented = Object.entries(openapi.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${path.replace(/\{(.+?)\}/g, ':$1')}`),
    );
    const inCollection: string[] = [];
    const used = new Set<string>();
    collection.forEachItem((item) => {
      inCollection.push(`${item.request.method} /${item.request.url.path?.join('/')}`);
      for (const [, name] of JSON.stringify(item.toJSON()).matchAll(/\{\{(\w+)\}\}/g)) used.add(name!);
    });
    expect(inCollection.sort()).toEqual(documented.sort());
    // Every variable a request names is defined.
    expect([...used].filter((name) => !(name in variables))).toEqual([]);
  });

  it('starts with signing in, whose test script stores the token and the organization', async () => {
    const res = await call(t.app, 'GET', '/api/v1/collection.json');
    const [first] = res.body.item;
    expect(first.name).toBe('Authentication');
    const signIn = first.item.find((item: { name: string }) => item.name === 'Sign in');
    expect(JSON.parse(signIn.request.body.raw)).toEqual({ email: 'demo@example.com', password: 'demo-password' });
    const script = signIn.event[0].script.exec.join('\n');
    expect(script).toContain("pm.collectionVariables.set('bearerToken'");
    expect(script).toContain("pm.collectionVariables.set('account_id'");
  });
});

describe('the collection runs as documented', () => {
  /** The collection's requests and the document's operations, by "METHOD /path/:param". */
  async function requestsAndOperations() {
    const collection = new Collection((await call(t.app, 'GET', '/api/v1/collection.json')).body);
    const openapi = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
    const operations = new Map<string, any>(
      Object.entries(openapi.paths).flatMap(([path, ops]) =>
        Object.entries(ops as object).map(([m, op]) => [`${m.toUpperCase()} ${path.replace(/\{(.+?)\}/g, ':$1')}`, op]),
      ),
    );
    const requests: { key: string; item: any }[] = [];
    collection.forEachItem((item) => {
      requests.push({ key: `${item.request.method} /${item.request.url.path?.join('/')}`, item: item.toJSON() });
    });
    return { requests, operations };
  }

  it('gives every request a test of the status its operation documents for success', async () => {
    const { requests, operations } = await requestsAndOperations();
    for (const { key, item } of requests) {
      const success = Object.keys(operations.get(key).responses).find((status) => status.startsWith('2'));
      const script = item.event?.find((e: { listen: string }) => e.listen === 'test')?.script.exec.join('\n');
      expect(script, key).toContain(`pm.response.to.have.status(${success})`);
    }
  });

  it('sends {{account_id}} exactly where the operation takes an account_id, and none elsewhere', async () => {
    const { requests, operations } = await requestsAndOperations();
    for (const { key, item } of requests) {
      const declared = operations.get(key).parameters?.find((p: any) => p.in === 'query' && p.name === 'account_id');
      const sent = item.request.url.query?.find((q: { key: string }) => q.key === 'account_id');
      if (declared) expect([key, sent?.value, sent?.disabled ?? false]).toEqual([key, '{{account_id}}', false]);
      else expect([key, sent]).toEqual([key, undefined]);
    }
    const catalogue = requests.find(({ item }) => item.name === 'List catalogue tariffs')!;
    expect(catalogue.item.request.url.query.map((q: { key: string }) => q.key)).not.toContain('account_id');
  });

  it('ends with a folder that deletes what the run created, and signs out last', async () => {
    const res = await call(t.app, 'GET', '/api/v1/collection.json');
    const last = res.body.item.at(-1);
    expect(last.name).toBe('Clean up');
    expect(last.item.every((item: any) => item.request.method === 'DELETE' || item.name === 'Sign out')).toBe(true);
    expect(last.item.at(-1).name).toBe('Sign out');
    const writes = res.body.item
      .slice(0, -1)
      .flatMap((folder: { item: any[] }) => folder.item)
      .filter((item: any) => item.request.method === 'DELETE');
    expect(writes).toEqual([]);
  });
});

describe('metrics', () => {
  it('exposes request counts and durations by route pattern and status, and pool use', async () => {
    const user = await registerUser(t.app);
    await user.client.get(`/api/v1/organizations/${user.personalAccountId}`);
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toMatch(
      /http_requests_total\{route="\/api\/v1\/organizations\/:id",method="GET",status="200"\} 1/,
    );
    expect(res.body).toMatch(/http_request_duration_seconds_bucket\{le="0.005",route="\/api\/v1\/organizations\/:id"/);
    expect(res.body).toMatch(/db_pool_connections_in_use \d+/);
    expect(res.body).not.toContain(user.personalAccountId);
  });
});

describe('scrapes of /metrics per client address', () => {
  it('answers 429 with Retry-After past METRICS_SCRAPES_PER_MIN a minute from one address, and serves other addresses', async () => {
    const limited = await startTestApp({ METRICS_SCRAPES_PER_MIN: '3' });
    try {
      const scrape = (remoteAddress = '127.0.0.1') =>
        limited.app.inject({ method: 'GET', url: '/metrics', remoteAddress });
      for (let i = 0; i < 3; i++) expect((await scrape()).statusCode).toBe(200);
      const refused = await scrape();
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual(failure('Too many requests', expect.stringContaining('Rate limit')));
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await scrape('10.0.0.9')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('has no limit with METRICS_SCRAPES_PER_MIN=0 (the tests read the admission gauges freely)', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 150; i++) statuses.add((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode);
    expect([...statuses]).toEqual([200]);
  });
});

describe('rate limits on authentication', () => {
  it('answers 429 with Retry-After past the limit per client address', async () => {
    const limited = await startTestApp({ AUTH_RATE_LIMIT_PER_MIN: '3' });
    try {
      const body = { email: 'nobody@example.com', password: 'whatever1' };
      for (let i = 0; i < 3; i++) {
        expect((await call(limited.app, 'POST', '/api/v1/auth/login', { body })).status).toBe(401);
      }
      const res = await call(limited.app, 'POST', '/api/v1/auth/login', { body });
      expect(res.status).toBe(429);
      expect(res.body).toEqual(failure('Too many requests', expect.stringContaining('Rate limit')));
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      const other = await limited.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: body,
        remoteAddress: '10.0.0.9',
      });
      expect(other.statusCode).toBe(401);
    } finally {
      await limited.close();
    }
  });
});

describe('CORS', () => {
  it('is off by default and allows only the configured origins', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/healthz', headers: { origin: 'https://evil.example' } });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
    const withCors = await startTestApp({ CORS_ORIGINS: 'https://app.example' });
    try {
      const allowed = await withCors.app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { origin: 'https://app.example' },
      });
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.example');
      const denied = await withCors.app.inject({
        method: 'GET',
        url: '/healthz',
        headers: { origin: 'https://evil.example' },
      });
      expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await withCors.close();
    }
  });
});
