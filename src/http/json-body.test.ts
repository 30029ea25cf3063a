import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../test/helpers/envelopes.ts';
import { createOrganization, registerUser, type TestUser } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { fieldNestedTooDeep } from './json-body.ts';

const READINGS = '/api/v1/timeseries/electricity/readings';
const tooDeep = (field: string) => invalid(`${field}: Must not be nested deeper than 32 levels`);
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

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

  it('parses a body whose fields nest 32 levels as before', async () => {
    const res = await post(READINGS, `{"account_id":"${accountId}","meter_sn":"M-1","readings":${arrays(32)}}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^readings\.0: /);
  });
});
