import { randomUUID } from 'node:crypto';
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
  await seedDemo(t);
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

/** The text with its variables replaced, as Postman does (`$guid`: a new uuid each time). */
function substitute(text: string): string {
  return text.replace(/\{\{([\w$]+)\}\}/g, (_, name: string) => {
    if (name === '$guid') return randomUUID();
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
  // A CSV answer (the tenants' statements) is read as text only.
  const json = text !== '' && !response.headers.get('content-type')?.startsWith('text/csv');
  return { status: response.status, body: json ? JSON.parse(text) : undefined, text };
}

interface Reply {
  code: number;
  json: () => unknown;
}

/**
 * Runs a test script as Postman would, with the part of `pm` that the collection's scripts use;
 * answers the names of its tests that failed.
 */
async function runTestScript(exec: string[], response: { status: number; body: unknown }): Promise<string[]> {
  const failed: string[] = [];
  const pending: Promise<void>[] = [];
  const reply = (code: number, body: unknown) => ({
    code,
    json: () => body,
    to: {
      have: {
        status(expected: number) {
          if (code !== expected) throw new Error(`expected status ${expected}, got ${code}`);
        },
      },
    },
  });
  const pm = {
    response: reply(response.status, response.body),
    test(name: string, check: () => void) {
      try {
        check();
      } catch (error) {
        failed.push(`${name}: ${(error as Error).message}`);
      }
    },
    collectionVariables: {
      get: (key: string) => variables.get(key),
      set: (key: string, value: unknown) => variables.set(key, String(value)),
    },
    sendRequest(
      request: { url: string; method: string; header: Record<string, string> },
      callback: (error: unknown, response?: Reply) => void,
    ) {
      pending.push(
        fetch(request.url, { method: request.method, headers: request.header }).then(
          async (res) => {
            const text = await res.text();
            callback(null, reply(res.status, text ? JSON.parse(text) : undefined));
          },
          (error: unknown) => callback(error),
        ),
      );
    },
  };
  runInNewContext(exec.join('\n'), { pm });
  await Promise.all(pending);
  return failed;
}

const testOf = (item: Item) => item.event?.find((e) => e.listen === 'test')?.script.exec ?? [];

/** What a client sees of the demo organization: its records, their configs, items, invoices (checked or not) and members. */
async function demoAsSeen(): Promise<unknown> {
  const token = variables.get('bearerToken');
  const accountId = variables.get('account_id');
  const get = async (path: string, query: Record<string, string> = {}) => {
    const search = new URLSearchParams({ account_id: accountId!, ...query });
    const res = await fetch(`${baseUrl}${path}?${search}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: await res.json() };
  };
  const all = { limit: '100', sortBy: 'id', sortOrder: 'asc' };
  const blocks = await get('/api/v1/building_blocks', all);
  const tariffs = await get('/api/v1/tariffs', all);
  const configs = await Promise.all(
    blocks.body.data.map((b: { id: number }) => get(`/api/v1/building_blocks/${b.id}/config`)),
  );
  const items = await Promise.all(
    tariffs.body.data.map((tariff: { id: number }) => get(`/api/v1/tariffs/${tariff.id}/items`, all)),
  );
  const transitions = await Promise.all(
    tariffs.body.data.map((tariff: { id: number }) => get(`/api/v1/tariffs/${tariff.id}/transitions`)),
  );
  const meters = await get('/api/v1/meters', all);
  const invoices = await get('/api/v1/invoices', all);
  const invoiceDetails = await Promise.all(
    invoices.body.data.map((invoice: { id: number }) => get(`/api/v1/invoices/${invoice.id}`)),
  );
  const gateways = await get('/api/v1/gateways', all);
  const allTime = { start: '2000-01-01T00:00:00Z', end: '2100-01-01T00:00:00Z' };
  const sums = await Promise.all(
    meters.body.data.map((m: { meter_sn: string; meter_type: string }) =>
      m.meter_type === 'WATER'
        ? get('/api/v1/timeseries/water/volume-sum', { meter_sn: m.meter_sn, ...allTime })
        : get('/api/v1/timeseries/electricity/energy-sum', { meter_sn: m.meter_sn, ...allTime }),
    ),
  );
  const registerReads = await Promise.all(
    meters.body.data
      .filter((m: { meter_type: string }) => m.meter_type === 'WATER')
      .map((m: { id: number }) => get(`/api/v1/meters/${m.id}/register-reads`)),
  );
  const organization = await fetch(`${baseUrl}/api/v1/organizations/${accountId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const members = await fetch(`${baseUrl}/api/v1/organizations/${accountId}/members?limit=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const users = await fetch(`${baseUrl}/api/v1/admin/users?limit=100`, {
    headers: { authorization: `Bearer ${SERVICE_ROLE_KEY}` },
  });
  return {
    blocks,
    tariffs,
    configs,
    items,
    transitions,
    meters,
    invoices,
    invoiceDetails,
    gateways,
    sums,
    registerReads,
    organization: await organization.json(),
    members: await members.json(),
    users: await users.json(),
  };
}

describe('the sample request collection against the demo', () => {
  it('signs in as the demo user and stores the access token and the demo organization', async () => {
    const signIn = items.find((item) => item.name === 'Sign in')!;
    const response = await send(signIn);
    expect(response.status).toBe(200);
    const accountId = variables.get('account_id');
    variables.set('account_id', '');
    expect(await runTestScript(testOf(signIn), response)).toEqual([]);
    expect(variables.get('bearerToken')).toBe(response.body.data.access_token);
    expect(variables.get('account_id')).toBe(accountId);
  });

  it('runs top to bottom with every test passing, and leaves the demo as it found it', async () => {
    const before = await demoAsSeen();
    const failed: string[] = [];
    let tests = 0;
    for (const item of items) {
      const exec = testOf(item);
      tests += exec.filter((line) => line.includes('pm.test(')).length;
      const response = await send(item);
      const failures = await runTestScript(exec, response);
      failed.push(...failures.map((failure) => `${item.name}: ${failure} ${response.text.slice(0, 300)}`));
      if (item.name === 'Sign out') {
        // Signed out: sign in again to look at the demo.
        const again = await send(items.find((i) => i.name === 'Sign in')!);
        variables.set('bearerToken', again.body.data.access_token);
      }
    }
    expect(failed).toEqual([]);
    expect(tests).toBeGreaterThanOrEqual(items.length);
    expect(await demoAsSeen()).toEqual(before);
  });
});
