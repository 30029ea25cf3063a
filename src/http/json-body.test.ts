import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../test/helpers/envelopes.ts';
import { createOrganization, registerUser, type TestUser } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { keysFault, shapeFault } from './json-body.ts';
import { LARGE_BODY_BYTES, MAX_JSON_DEPTH, MAX_JSON_KEYS, MAX_JSON_VALUES } from './limits.ts';

const READINGS = '/api/v1/timeseries/electricity/readings';
const tooDeep = (field: string) => invalid(`${field}: Must not be nested deeper than 32 levels`);
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** The field a JSON text too deep for maxDepth names, or undefined. */
const fieldNestedTooDeep = (text: string, maxDepth: number) =>
  shapeFault(text, maxDepth, Number.POSITIVE_INFINITY)?.field;

describe('the nesting of a JSON text, before it is parsed', () => {
  it('counts a field as level 1 and names the top-level key or index whose value is too deep', () => {
    expect(fieldNestedTooDeep(`{"a":${arrays(32)}}`, 32)).toBeUndefined();
    expect(fieldNestedTooDeep(`{"a":${arrays(33)}}`, 32)).toBe('a');
    expect(fieldNestedTooDeep(`{"a":1,"b":{"c":${arrays(32)}}}`, 32)).toBe('b');
    expect(fieldNestedTooDeep(`[1,{"x":2},${arrays(33)}]`, 32)).toBe('2');
    expect(fieldNestedTooDeep(arrays(33), 32)).toBeUndefined();
    expect(fieldNestedTooDeep(arrays(34), 32)).toBe('0');
  });

  it('skips brackets, quotes and backslashes inside strings', () => {
    const inStrings = `{"a":"${'['.repeat(100)}","b\\"[":"\\\\","c":["\\"{{{{"]}`;
    expect(JSON.parse(inStrings).a).toHaveLength(100);
    expect(fieldNestedTooDeep(inStrings, 1)).toBeUndefined();
    expect(fieldNestedTooDeep(`{"k\\"ey":${arrays(3)}}`, 2)).toBe('k"ey');
  });

  it('names the body rather than repeat a key longer than 100 characters', () => {
    expect(fieldNestedTooDeep(`{"${'k'.repeat(101)}":${arrays(3)}}`, 2)).toBe('body');
  });

  it('counts the values of a text, and names the field where they pass the most', () => {
    const values = (count: number) => `[${Array.from({ length: count }, () => 0).join(',')}]`;
    expect(shapeFault(`{"a":${values(4)}}`, 32, 4)).toBeUndefined();
    expect(shapeFault(`{"a":${values(5)}}`, 32, 4)).toEqual({
      field: 'a',
      message: 'Must not hold more than 4 values',
    });
    expect(shapeFault(`{"a":${values(2)},"b":${values(3)}}`, 32, 4)).toEqual({
      field: 'b',
      message: 'Must not hold more than 4 values',
    });
    expect(shapeFault(`{"a":"${','.repeat(10)}"}`, 32, 4)).toBeUndefined();
  });

  it('leaves the largest request of the contract to be parsed: the energy sums of 10,000 meters', () => {
    const sums = {
      account_id: '00000000-0000-4000-8000-000000000000',
      meter_sns: Array.from({ length: 10_000 }, (_, i) => `METER-${i}`),
      start: '2025-01-01T00:00:00Z',
      end: '2025-02-01T00:00:00Z',
      max_meters_per_query: 1000,
    };
    expect(shapeFault(JSON.stringify(sums), MAX_JSON_DEPTH, MAX_JSON_VALUES)).toBeUndefined();
  });
});

describe('the distinct object keys of a JSON value', () => {
  it('counts a key once for each different run of keys before it in its object, and names the field where they pass the most', () => {
    const value = {
      a: [
        { x: 1, y: 2 },
        { x: 3, y: 4 },
        { x: 5, z: 6 },
      ],
      b: { x: 1 },
    };
    // a, then x, x.y and x.z in a's objects, then b after a; b's object's x is the x of a's first ones.
    expect(keysFault(value, 5)).toBeUndefined();
    expect(keysFault(value, 4)).toEqual({ field: 'b', message: 'Must not hold more than 4 distinct object keys' });
    expect(keysFault(value, 3)).toEqual({ field: 'a', message: 'Must not hold more than 3 distinct object keys' });
    expect(keysFault({ ...value, c: 1 }, 5)).toEqual({
      field: 'c',
      message: 'Must not hold more than 5 distinct object keys',
    });
    expect(keysFault([{ p: 1 }, [{ q: 1 }], { r: 1 }], 2)?.field).toBe('2');
    expect(keysFault([1, 'two', null], 0)).toBeUndefined();
  });
});

describe('deeply nested bodies over HTTP', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await registerUser(t.app, 'deep');
    accountId = await createOrganization(owner);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => t.close());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body,
    });
    return { status: res.status, body: await res.json() };
  };

  it('answers 400 naming the field to 5,000,000 nested arrays sent to the readings endpoint', async () => {
    const deep = arrays(5_000_000);
    expect(await post(READINGS, deep)).toEqual({ status: 400, body: tooDeep('0') });
    const inReadings = `{"account_id":"${accountId}","meter_sn":"M-1","readings":${deep}}`;
    expect(await post(READINGS, inReadings)).toEqual({ status: 400, body: tooDeep('readings') });
  });

  it('keeps answering /healthz while such bodies are sent', async () => {
    const deep = `{"readings":${arrays(5_000_000)}}`;
    const health = async () => {
      const res = await fetch(`${base}/healthz`);
      return { status: res.status, body: await res.json() };
    };
    // Two at once: as many large bodies as one user may send at once (ingest-parser.ts).
    const [deepReplies, healthReplies] = await Promise.all([
      Promise.all(Array.from({ length: 2 }, () => post(READINGS, deep))),
      Promise.all(Array.from({ length: 8 }, health)),
    ]);
    for (const reply of deepReplies) expect(reply).toEqual({ status: 400, body: tooDeep('readings') });
    for (const reply of healthReplies) {
      expect(reply).toEqual({ status: 200, body: { success: true, message: null, data: { status: 'ok' } } });
    }
  });

  it('answers 400 naming the field, unparsed, to a body of more than 20,000 values', async () => {
    const numbers = Array.from({ length: 524_000 }, () => 0).join(',');
    expect(await post('/api/v1/building_blocks', `{"account_id":"${accountId}","name":[${numbers}]}`)).toEqual({
      status: 400,
      body: invalid('name: Must not hold more than 20,000 values'),
    });
  });

  it('parses a body whose fields nest 32 levels as before', async () => {
    const res = await post(READINGS, `{"account_id":"${accountId}","meter_sn":"M-1","readings":${arrays(32)}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^readings\.0: /);
  });

  describe('bodies over 64 KiB, parsed in a worker thread', () => {
    const put = async (body: string) => {
      const res = await fetch(`${base}/api/v1/organizations/${accountId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: await res.json() };
    };
    /** A public_data of `count` readings-like entries, over LARGE_BODY_BYTES from some 1,500 on. */
    const entries = (count: number) =>
      Array.from({ length: count }, (_, i) => ({ ts: `2026-01-01T00:${String(i % 60).padStart(2, '0')}:00Z`, kwh: i }));

    it('stores and answers the value of a large body as of a small one', async () => {
      const public_data = { entries: entries(3000), note: 'é, \u00e9 and 💡' };
      const body = JSON.stringify({ public_data });
      expect(Buffer.byteLength(body)).toBeGreaterThan(LARGE_BODY_BYTES);
      const res = await put(body);
      expect(res.status).toBe(200);
      expect(res.body.data.public_data).toEqual(public_data);
    });

    it('refuses a malformed or poisoned large body as a small one', async () => {
      const padding = 'x'.repeat(LARGE_BODY_BYTES);
      for (const [small, large] of [
        ['{"name": "a"', `{"name": "${padding}"`],
        ['{"public_data": {"__proto__": {"x": 1}}}', `{"public_data": {"__proto__": {"x": 1}, "pad": "${padding}"}}`],
      ] as const) {
        const refused = await put(small);
        expect(refused.status).toBe(400);
        expect(await put(large)).toEqual(refused);
      }
    });

    it(`answers 400 naming the field to a body of more than ${MAX_JSON_KEYS.toLocaleString('en')} distinct object keys, large or small`, async () => {
      const fresh = (count: number, padding = '') =>
        Array.from({ length: count }, (_, i) => `{"key-${i}${padding}":0}`).join(',');
      const refusal = { status: 400, body: invalid('public_data: Must not hold more than 2,000 distinct object keys') };
      const large = `{"public_data":{"list":[${fresh(MAX_JSON_KEYS, 'k'.repeat(30))}]}}`;
      expect(Buffer.byteLength(large)).toBeGreaterThan(LARGE_BODY_BYTES);
      expect(await put(large)).toEqual(refusal);
      const small = `{"public_data":{"list":[${fresh(MAX_JSON_KEYS - 1)}]}}`;
      expect(Buffer.byteLength(small)).toBeLessThan(LARGE_BODY_BYTES);
      expect(await put(small)).toEqual(refusal);
      const fits = `{"public_data":{"list":[${fresh(MAX_JSON_KEYS - 2)}]}}`;
      expect((await put(fits)).status).toBe(200);
    });
  });
});
