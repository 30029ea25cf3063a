import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed, seedDemo } from '../src/seed/demo.ts';
import { call, clientFor } from './helpers/http.ts';
import { createItems, createTariff } from './helpers/tariff-factories.ts';
import { SERVICE_ROLE_KEY, startTestApp, type TestApp } from './helpers/test-app.ts';

let t: TestApp;
let seed: DemoSeed;
let token: string;
/** A tariff of the demo organization with an item of tiers. */
let tieredTariffId: number;
beforeAll(async () => {
  t = await startTestApp();
  seed = (await seedDemo(t, new Date('2026-11-22T10:17:00Z')))!;
  const login = await call(t.app, 'POST', '/api/v1/auth/login', {
    body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });
  token = login.body.data.access_token;
  const client = clientFor(t.app, token);
  tieredTariffId = (await createTariff(client, seed.accountId, { name: 'Tiered', tariff_type: 'BLOCK' })).id;
  await createItems(client, tieredTariffId, {
    item_type_code: 'IMPORT_ENERGY',
    price: 0,
    blocks: [
      { block_index: 0, upper_limit: 350.5, unit_price_cents: 0.0001 },
      { block_index: 1, upper_limit: null, unit_price_cents: 215.62 },
    ],
  });
});
afterAll(async () => t.close());

/** The answer's text, as sent. */
async function text(url: string, bearer = token): Promise<{ status: number; body: string }> {
  const response = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
  return { status: response.statusCode, body: response.body };
}

/** A list page of 100 and the text of each of its rows' own read, where the API has one. */
async function pageAndReads(list: string, read?: (row: { id: number }) => string) {
  const page = await text(list);
  expect(page.status).toBe(200);
  const rows = JSON.parse(page.body).data as { id: number }[];
  expect(rows.length).toBeGreaterThan(0);
  const reads = read ? await Promise.all(rows.map(async (row) => JSON.parse((await text(read(row))).body).data)) : [];
  return { page: page.body, rows, reads };
}

describe('list pages', () => {
  const lists: [string, () => string, ((row: { id: number }) => string) | undefined][] = [
    ['tariffs', () => `/api/v1/tariffs?account_id=${seed.accountId}&limit=100`, undefined],
    ['catalogue', () => '/api/v1/tariffs/catalogue?limit=100', undefined],
    [
      'tariff items, with their tiers',
      () => `/api/v1/tariffs/${tieredTariffId}/items?account_id=${seed.accountId}&limit=100`,
      undefined,
    ],
    [
      'building blocks',
      () => `/api/v1/building_blocks?account_id=${seed.accountId}&limit=100`,
      (row) => `/api/v1/building_blocks/${row.id}?account_id=${seed.accountId}`,
    ],
    [
      'meters',
      () => `/api/v1/meters?account_id=${seed.accountId}&limit=100`,
      (row) => `/api/v1/meters/${row.id}?account_id=${seed.accountId}`,
    ],
    ['invoices', () => `/api/v1/invoices?account_id=${seed.accountId}&limit=100`, undefined],
    ['members', () => `/api/v1/organizations/${seed.accountId}/members?limit=100`, undefined],
  ];

  it.each(lists)(
    'writes %s as JSON.stringify writes them: compact, numbers and instants as JavaScript writes them',
    async (_, list) => {
      const { page } = await pageAndReads(list());
      expect(page).toBe(JSON.stringify(JSON.parse(page)));
      if (page.includes('"created_at"')) {
        expect(page).toMatch(/"created_at":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/);
      }
    },
  );

  it('writes tiers inside their items, prices as JavaScript writes them', async () => {
    const page = JSON.parse((await text(`/api/v1/tariffs/${tieredTariffId}/items?account_id=${seed.accountId}`)).body);
    const tiers = page.data[0].tariff_blocks as { upper_limit: number | null; unit_price_cents: number }[];
    expect(tiers.map((tier) => [tier.upper_limit, tier.unit_price_cents])).toEqual([
      [350.5, 0.0001],
      [null, 215.62],
    ]);
  });

  it.each(lists.filter(([, , read]) => read))(
    'answers each row of %s as its own read does, field for field and in order',
    async (_, list, read) => {
      const { rows, reads } = await pageAndReads(list(), read);
      expect(rows.map((row) => JSON.stringify(row))).toEqual(reads.map((row) => JSON.stringify(row)));
    },
  );

  it("answers an invoice's row as its own read does, with line_count in the place of the read's lines", async () => {
    const { rows } = await pageAndReads(`/api/v1/invoices?account_id=${seed.accountId}&limit=100`);
    for (const row of rows) {
      const read = JSON.parse((await text(`/api/v1/invoices/${row.id}?account_id=${seed.accountId}`)).body).data;
      const own = Object.fromEntries(
        Object.entries(read).map(([key, value]) =>
          key === 'lines' ? ['line_count', (value as unknown[]).length] : [key, value],
        ),
      );
      expect(JSON.stringify(row)).toBe(JSON.stringify(own));
    }
  });

  it("answers a tariff's row as the tariff's own read does, but the read's items", async () => {
    const { rows } = await pageAndReads(`/api/v1/tariffs?account_id=${seed.accountId}&limit=100`);
    for (const row of rows) {
      const read = JSON.parse((await text(`/api/v1/tariffs/${row.id}?account_id=${seed.accountId}`)).body).data;
      const own = Object.fromEntries(Object.keys(row).map((key) => [key, read[key]]));
      expect(JSON.stringify(row)).toBe(JSON.stringify(own));
    }
  });

  it('writes the users of the admin list the same way', async () => {
    const page = await text('/api/v1/admin/users?limit=100', SERVICE_ROLE_KEY);
    expect(page.status).toBe(200);
    expect(page.body).toBe(JSON.stringify(JSON.parse(page.body)));
    expect(JSON.parse(page.body).data).toContainEqual({
      id: expect.any(String),
      email: DEMO_EMAIL,
      created_at: expect.stringMatching(/Z$/),
    });
  });

  it('answers a page past the end with no rows and the count of all', async () => {
    const all = JSON.parse((await text(`/api/v1/meters?account_id=${seed.accountId}`)).body);
    const past = await text(`/api/v1/meters?account_id=${seed.accountId}&page=1000`);
    expect(past.status).toBe(200);
    expect(JSON.parse(past.body)).toEqual({ success: true, message: null, data: [], count: all.count });
  });
});
