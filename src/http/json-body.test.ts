import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../test/helpers/envelopes.ts';
import { createOrganization, registerUser, type TestUser } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { shapeFault } from './json-body.ts';
import { MAX_JSON_DEPTH, MAX_JSON_VALUES } from './limits.ts';

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
});
