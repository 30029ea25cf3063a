import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, invalidQuery } from '../helpers/envelopes.ts';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { createItems, createTariff } from '../helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The rules of reading input strictly that are not one per route (those are in the isolation
 * matrix): number bounds, nesting depth, nested unknown keys, integer query parameters.
 */
let t: TestApp;
let owner: TestUser;
let accountId: string;

beforeAll(async () => {
  t = await startTestApp();
  owner = await registerUser(t.app, 'strict');
  accountId = await createOrganization(owner);
});
afterAll(async () => t.close());

const NOT_PLAIN_DIGITS = 'Must be a whole number in plain decimal digits';

/** `{ "a": { "a": ... 1 } }` with `levels` objects. */
function nestedObject(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { a: 1 };
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** The JSON text of nestedObject(levels), written directly: JSON.stringify itself overflows the stack on deep values. */
const nestedObjectText = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;

/** The JSON text of `levels` nested arrays. */
const nestedArrayText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

async function send(method: 'POST' | 'PUT', url: string, payload: string) {
  const res = await t.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
  });
  return { status: res.statusCode, body: res.json() };
}

describe('public_data nesting', () => {
  const url = () => `/api/v1/organizations/${accountId}`;

  it('keeps 32 levels of nested objects', async () => {
    const res = await owner.client.put(url(), { public_data: nestedObject(32) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.public_data).toEqual(nestedObject(32));
  });

  it.each([33, 100, 5_000])('answers 400 for %i levels of objects, and keeps the data as it was', async (levels) => {
    await owner.client.put(url(), { public_data: { kept: true } });
    const res = await send('PUT', url(), `{"public_data":${nestedObjectText(levels)}}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('public_data: Must not be nested deeper than 32 levels'));
    expect((await owner.client.get(url())).body.data.public_data).toEqual({ kept: true });
  });

  it('counts arrays as levels', async () => {
    const inArrays = { list: JSON.parse(nestedArrayText(31)) };
    expect((await owner.client.put(url(), { public_data: inArrays })).status).toBe(200);
    const res = await send('PUT', url(), `{"public_data":{"list":${nestedArrayText(32)}}}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('public_data: Must not be nested deeper than 32 levels'));
  });
});

describe('a deeply nested body anywhere', () => {
  it.each([
    ['the whole body', '/api/v1/organizations', (deep: string) => deep, '0: Must not be nested deeper than 32 levels'],
    [
      'a text field',
      '/api/v1/tariffs',
      (deep: string) =>
        `{"account_id":"${accountId}","name":${deep},"effective_from":"2025-01-01","effective_to":"2025-12-31"}`,
      'name: Must not be nested deeper than 32 levels',
    ],
  ])('answers 400 for 100,000 nested arrays as %s', async (_where, path, body, error) => {
    const res = await send('POST', path, body(nestedArrayText(100_000)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
  });
});

describe('prices and rates', () => {
  async function blockTariff() {
    const tariff = await createTariff(owner.client, accountId, { tariff_type: 'BLOCK' });
    return tariff.id as number;
  }

  it('refuses an item price of 1e308 (it used to be stored and priced as total null)', async () => {
    const tariffId = await blockTariff();
    const res = await send(
      'POST',
      `/api/v1/tariffs/${tariffId}/items`,
      '{"item_type_code":"IMPORT_ENERGY","price":1e308}',
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('price: Too big: expected number to be <=1000000'));
    expect((await owner.client.get(`/api/v1/tariffs/${tariffId}/items`, { account_id: accountId })).body.count).toBe(0);
  });

  it.each([
    [1_000_000, 201],
    [-1_000_000, 201],
    [0.123456, 201],
    [-999_999.999999, 201],
    [1_000_000.5, 400],
    [-1_000_001, 400],
    [0.1234567, 400],
  ])('item price %d: %i', async (price, status) => {
    const tariffId = await blockTariff();
    const res = await owner.client.post(`/api/v1/tariffs/${tariffId}/items`, [{ item_type_code: 'SERVICE', price }]);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 201) expect(res.body.data[0].price).toBe(price);
    const update = await owner.client.post(`/api/v1/tariffs/${tariffId}/items`, {
      item_type_code: 'ADMINISTRATION',
      price: 1,
    });
    const changed = await owner.client.put(`/api/v1/tariffs/${tariffId}/items/${update.body.data[0].id}`, { price });
    expect(changed.status).toBe(status === 201 ? 200 : 400);
  });

  it('names the rule that a price breaks', async () => {
    const tariffId = await blockTariff();
    const res = await owner.client.post(`/api/v1/tariffs/${tariffId}/items`, [
      { item_type_code: 'SERVICE', price: 0.1234567 },
      { item_type_code: 'ADMINISTRATION', price: -1_000_000.01 },
    ]);
    expect(res.body).toEqual(
      invalid('0.price: Must have at most 6 decimals; 1.price: Too small: expected number to be >=-1000000'),
    );
  });

  it.each([
    [0, 201],
    [100_000_000, 201],
    [-1, 400],
    [100_000_001, 400],
    [232.31, 201],
    [232.3125, 201],
    // Up to 4 decimals: a fifth is refused rather than rounded away.
    [232.31251, 400],
    [100_000_000.0001, 400],
  ])('block unit_price_cents %d: %i', async (cents, status) => {
    const tariffId = await blockTariff();
    const [item] = await createItems(owner.client, tariffId, { item_type_code: 'IMPORT_ENERGY', price: 0 });
    const url = `/api/v1/tariffs/${tariffId}/items/${item.id}/blocks`;
    const res = await owner.client.post(url, [{ block_index: 0, upper_limit: null, unit_price_cents: cents }]);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 201) {
      expect(res.body.data[0].unit_price_cents).toBe(cents);
      const changed = await owner.client.put(`${url}/${res.body.data[0].id}`, { unit_price_cents: cents });
      expect(changed.status).toBe(200);
    }
  });

  it.each([
    [0, 201],
    [100, 201],
    [15.5, 201],
    [-0.01, 400],
    [100.01, 400],
  ])('tariff tax_rate %d: %i', async (tax_rate, status) => {
    const res = await owner.client.post('/api/v1/tariffs', {
      account_id: accountId,
      name: 'Taxed',
      effective_from: '2025-01-01',
      effective_to: '2025-12-31',
      tax_rate,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });
});

describe('unknown keys in nested objects', () => {
  it('refuses tiers posted with "price" instead of unit_price_cents, and stores nothing', async () => {
    const tariff = await createTariff(owner.client, accountId, { tariff_type: 'BLOCK' });
    const [item] = await createItems(owner.client, tariff.id, { item_type_code: 'IMPORT_ENERGY', price: 0 });
    const url = `/api/v1/tariffs/${tariff.id}/items/${item.id}/blocks`;
    const res = await owner.client.post(url, [
      { block_index: 0, upper_limit: 100, unit_price_cents: 150 },
      { block_index: 1, upper_limit: null, price: 2.2 },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('1.price: Unrecognized key "price"'));
    expect((await owner.client.get(url)).body.count).toBe(0);
  });

  it('names each unknown key of an item and of its blocks', async () => {
    const tariff = await createTariff(owner.client, accountId, { tariff_type: 'BLOCK' });
    const res = await owner.client.post(`/api/v1/tariffs/${tariff.id}/items`, {
      item_type_code: 'IMPORT_ENERGY',
      price: 0,
      unit_price: 1,
      colour: 'red',
      blocks: [{ block_index: 0, upper_limit: null, unit_price_cents: 100, price: 2.2 }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid(
        'blocks.0.price: Unrecognized key "price"; unit_price: Unrecognized key "unit_price"; colour: Unrecognized key "colour"',
      ),
    );
  });

  it('keeps the database-error form of building block create for a missing required field', async () => {
    const res = await owner.client.post('/api/v1/building_blocks', { account_id: accountId, name: 'No address' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBeNull();
    expect(JSON.parse(res.body.error)).toMatchObject({ code: '23502' });
  });
});

describe('integer query parameters', () => {
  it.each([
    ['/api/v1/building_blocks', 'limit', '1e1'],
    ['/api/v1/building_blocks', 'page', '+1'],
    ['/api/v1/meters', 'limit', '010'],
    ['/api/v1/tariffs', 'page', '1.0'],
    ['/api/v1/tariffs', 'dso_id', '0x1'],
    ['/api/v1/building_blocks', 'parent_id', '1e0'],
    ['/api/v1/tou_schedules', 'dso_id', ' 1'],
  ])('%s?%s=%s: 400', async (path, name, value) => {
    // Reference data takes no account_id (an unknown parameter is refused before the values).
    const account = path === '/api/v1/tou_schedules' ? {} : { account_id: accountId };
    const res = await owner.client.get(path, { ...account, [name]: value });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(`${name}: ${NOT_PLAIN_DIGITS}`));
  });

  it('still reads plain digits', async () => {
    const res = await owner.client.get('/api/v1/building_blocks', { account_id: accountId, page: '1', limit: '10' });
    expect(res.status).toBe(200);
  });

  it('reads bucket_minutes as plain digits only', async () => {
    const res = await owner.client.get('/api/v1/timeseries/electricity/energy-profile', {
      account_id: accountId,
      meter_sn: 'ANY',
      start: '2025-03-03T00:00:00Z',
      end: '2025-03-04T00:00:00Z',
      bucket_minutes: '3e1',
    });
    expect(res.body).toEqual(invalidQuery(`bucket_minutes: ${NOT_PLAIN_DIGITS}`));
  });
});

describe('uuids in upper case', () => {
  it('are answered lower-case where the answer repeats them', async () => {
    const res = await owner.client.get(`/api/v1/auth/users/${owner.id.toUpperCase()}/organizations`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const organization of res.body.data) {
      expect(organization.user_id).toBe(owner.id);
      expect(organization.requested_by).toBe(owner.id);
    }
  });

  it('name the caller as primary owner', async () => {
    const res = await owner.client.post('/api/v1/organizations', {
      name: 'Upper',
      primary_owner_user_id: owner.id.toUpperCase(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.primary_owner_user_id).toBe(owner.id);
  });
});
