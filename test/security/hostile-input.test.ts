import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let accountId: string;
let operations: { method: string; path: string; pathParams: string[]; queryParams: string[] }[];

beforeAll(async () => {
  t = await startTestApp();
  owner = await registerUser(t.app, 'fuzz');
  accountId = await createOrganization(owner);
  const doc = (await t.app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  operations = Object.entries(doc.paths as Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>).flatMap(
    ([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      })),
  );
});
afterAll(async () => t.close());

const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom('', ' ', '-1', '0', '1e309', 'NaN', 'null', '[]', '{}', '../../etc/passwd', "' OR 1=1 --", '%00', '\u0000', '9'.repeat(40)),
  fc.integer().map(String),
  fc.double().map(String),
  fc.uuid(),
);

const hostileValue = fc.oneof(
  hostileText,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
);

function hostileBody(knownKeys: string[]) {
  const keys = [...knownKeys, 'account_id', 'name', 'id', 'readings', 'meter_sns', 'price', 'blocks', '__proto__', 'constructor'];
  return fc.oneof(
    fc.dictionary(fc.constantFrom(...keys), fc.oneof(hostileValue, fc.constant(accountId)), { maxKeys: 8 }),
    fc.array(fc.dictionary(fc.constantFrom(...keys), hostileValue, { maxKeys: 4 }), { maxLength: 3 }),
    hostileValue,
  );
}

describe('hostile input', () => {
  it('never answers 5xx, always the envelope, on every route', async () => {
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(
          fc.array(hostileText, { minLength: op.pathParams.length, maxLength: op.pathParams.length }),
          fc.dictionary(fc.constantFrom(...op.queryParams, 'account_id', 'extra'), fc.oneof(hostileText, fc.constant(accountId)), {
            maxKeys: 5,
          }),
          hostileBody(op.queryParams),
          async (pathValues, query, body) => {
            let url = op.path;
            op.pathParams.forEach((name, i) => {
              url = url.replace(`{${name}}`, encodeURIComponent(pathValues[i] ?? ''));
            });
            const res = await t.app.inject({
              method: op.method as 'GET',
              url,
              query,
              headers: { authorization: `Bearer ${owner.token}` },
              ...(op.method === 'POST' || op.method === 'PUT' ? { payload: JSON.stringify(body), headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' } } : {}),
            });
            const context = `${op.method} ${url} ${JSON.stringify(query)} ${JSON.stringify(body)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
            expect(res.statusCode, context).toBeLessThan(500);
            if (res.statusCode === 204) return;
            const envelope = res.json();
            expect(typeof envelope.success, context).toBe('boolean');
            if (!envelope.success) expect(typeof envelope.error, context).toBe('string');
          },
        ),
        { numRuns: 25, seed: 20261122 },
      );
    }
  }, 240_000);
});
