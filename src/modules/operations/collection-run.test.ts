import type { AddressInfo } from 'node:net';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_ROLE_KEY, startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { seedDemo } from '../../seed/demo.ts';

/** A request of the collection, as far as running it needs. */
interface Item {
  name: string;
  request: {
    method: string;
    url: {
      path: string[];
      query: { key: string; value: string; disabled?: boolean }[];
      variable: { key: string; value: string }[];
    };
    auth?: { type: string; bearer?: { value: string }[] };
    body?: { raw: string };
  };
  event?: { listen: string; script: { exec: string[] } }[];
}

let t: TestApp;
let baseUrl: string;
let items: Item[];
let variables: Map<string, string>;

beforeAll(async () => {
  t = await startTestApp();
  await seedDemo(t.db);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const collection = await (await fetch(`${baseUrl}/api/v1/collection.json`)).json();
  items = collection.item.flatMap((folder: { item: Item[] }) => folder.item);
  variables = new Map(collection.variable.map((v: { key: string; value: string }) => [v.key, v.value]));
  // What a user sets: where the service runs, and (for the administration requests) its key.
  variables.set('baseUrl', baseUrl);
  variables.set('serviceRoleKey', SERVICE_ROLE_KEY);
});
afterAll(async () => t.close());

function substitute(text: string): string {
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = variables.get(name);
    if (value === undefined) throw new Error(`The collection names an undefined variable ${name}`);
    return value;
  });
}

function urlOf({ url }: Item['request']): string {
  const path = url.path.map((segment) =>
    segment.startsWith(':') ? url.variable.find((v) => v.key === segment.slice(1))!.value : segment,
  );
  const query = url.query
    .filter((q) => !q.disabled)
    .map((q) => `${encodeURIComponent(q.key)}=${encodeURIComponent(substitute(q.value))}`);
  return `${baseUrl}/${substitute(path.join('/'))}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

function tokenOf(request: Item['request']): string | undefined {
  if (request.auth?.type === 'noauth') return undefined;
  return substitute(request.auth?.bearer?.[0]?.value ?? '{{bearerToken}}');
}

async function send(item: Item) {
  const { request } = item;
  const token = tokenOf(request);
  const response = await fetch(urlOf(request), {
    method: request.method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(request.body ? { 'content-type': 'application/json' } : {}),
    },
    ...(request.body ? { body: substitute(request.body.raw) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
}

/** Runs a test script as Postman would, with the part of `pm` that the collection's scripts use. */
async function runTestScript(exec: string[], response: { status: number; body: unknown }) {
  const pending: Promise<void>[] = [];
  const pm = {
    response: { code: response.status, json: () => response.body },
    collectionVariables: {
      get: (key: string) => variables.get(key),
      set: (key: string, value: unknown) => variables.set(key, String(value)),
    },
    sendRequest(
      request: { url: string; method: string; header: Record<string, string> },
      callback: (error: unknown, response?: { code: number; json: () => unknown }) => void,
    ) {
      pending.push(
        fetch(request.url, { method: request.method, headers: request.header }).then(
          async (res) => {
            const json = await res.json();
            callback(null, { code: res.status, json: () => json });
          },
          (error: unknown) => callback(error),
        ),
      );
    },
  };
  runInNewContext(exec.join('\n'), { pm });
  await Promise.all(pending);
}

describe('the sample request collection against the demo', () => {
  it('signs in as the demo user and stores the access token and the demo organization', async () => {
    const signIn = items.find((item) => item.name === 'Sign in')!;
    const response = await send(signIn);
    expect(response.status).toBe(200);
    const accountId = variables.get('account_id');
    variables.set('account_id', '');
    await runTestScript(signIn.event!.find((e) => e.listen === 'test')!.script.exec, response);
    expect(variables.get('bearerToken')).toBe(response.body.data.access_token);
    expect(variables.get('account_id')).toBe(accountId);
  });

  it('answers every read request of the collection with 2xx', async () => {
    const reads = items.filter((item) => item.request.method === 'GET');
    expect(reads.length).toBeGreaterThanOrEqual(29);
    const failed: string[] = [];
    for (const item of reads) {
      const { status, text } = await send(item);
      if (status >= 300) failed.push(`${item.name}: ${status} ${text}`);
    }
    expect(failed).toEqual([]);
  });

  it('answers no write request of the collection with 400 (nor 5xx)', async () => {
    const writes = items.filter((item) => item.request.method !== 'GET' && item.name !== 'Sign in');
    const failed: string[] = [];
    for (const item of writes) {
      const { status, text } = await send(item);
      if (status === 400 || status >= 500) failed.push(`${item.name}: ${status} ${text}`);
    }
    expect(failed).toEqual([]);
  });
});
