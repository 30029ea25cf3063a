import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  conflict,
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  invalid,
  invalidQuery,
  notFound,
  ownedByAnother,
  READ_ONLY,
} from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { createItems, createTariff, UNSET_ITEM_FIELDS } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { CATALOGUE_ACCOUNT_ID } from '../tariffs/tariffs.model.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

const itemsOf = (tariffId: number) => `/api/v1/tariffs/${tariffId}/items`;
const FORBIDDEN_FOREIGN = ownedByAnother('Tariff');
const ITEM_NOT_FOUND = notFound('Tariff item');

async function setup() {
  const r = await organizationWithRoles(t.app);
  const tariff = await createTariff(r.owner.client, r.accountId, { tariff_type: 'BLOCK' });
  return { ...r, tariff };
}

async function itemCount(r: Awaited<ReturnType<typeof setup>>) {
  return (await r.owner.client.get(itemsOf(r.tariff.id))).body.count;
}

describe('create', () => {
  it('creates one item object (season SUMMER by default) and answers an array with nested tariff_blocks', async () => {
    const r = await setup();
    const res = await r.admin.client.post(itemsOf(r.tariff.id), { item_type_code: 'IMPORT_ENERGY', price: 2.1611 });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: [
        {
          id: expect.any(Number),
          tariff_id: r.tariff.id,
          item_type_code: 'IMPORT_ENERGY',
          price: 2.1611,
          season: 'SUMMER',
          ...UNSET_ITEM_FIELDS,
          tariff_blocks: [],
        },
      ],
    });
  });

  it('creates an array of items with their blocks, ordered by block_index', async () => {
    const r = await setup();
    const res = await r.owner.client.post(itemsOf(r.tariff.id), [
      {
        item_type_code: 'IMPORT_ENERGY',
        price: 1.9,
        season: 'WINTER',
        blocks: [
          { block_index: 1, unit_price_cents: 216 },
          { block_index: 0, upper_limit: 350, unit_price_cents: 190 },
        ],
      },
      { item_type_code: 'SERVICE', price: 3.27, season: 'ALL_YEAR', blocks: [] },
    ]);
    expect(res.status).toBe(201);
    const [energy, service] = res.body.data;
    expect(energy).toEqual({
      id: expect.any(Number),
      tariff_id: r.tariff.id,
      item_type_code: 'IMPORT_ENERGY',
      price: 1.9,
      season: 'WINTER',
      ...UNSET_ITEM_FIELDS,
      tariff_blocks: [
        { id: expect.any(Number), tariff_item_id: energy.id, block_index: 0, upper_limit: 350, unit_price_cents: 190 },
        { id: expect.any(Number), tariff_item_id: energy.id, block_index: 1, upper_limit: null, unit_price_cents: 216 },
      ],
    });
    expect(service).toMatchObject({ item_type_code: 'SERVICE', season: 'ALL_YEAR', tariff_blocks: [] });
    const read = await r.owner.client.get(`/api/v1/tariffs/${r.tariff.id}`, { account_id: r.accountId });
    expect(read.body.data.tariff_items).toEqual([energy, service]);
  });

  it('answers 409 for a second (item_type_code, season) in the tariff or within the batch, and keeps nothing of the batch', async () => {
    const r = await setup();
    await createItems(r.owner.client, r.tariff.id, { item_type_code: 'SERVICE', price: 1, season: 'ALL_YEAR' });
    const existing = await r.owner.client.post(itemsOf(r.tariff.id), [
      { item_type_code: 'IMPORT_ENERGY', price: 1, blocks: [{ block_index: 0, upper_limit: null }] },
      { item_type_code: 'SERVICE', price: 2, season: 'ALL_YEAR' },
    ]);
    expect([existing.status, existing.body]).toEqual([
      409,
      conflict('The tariff already has an item SERVICE for season ALL_YEAR'),
    ]);
    const withinBatch = await r.owner.client.post(itemsOf(r.tariff.id), [
      { item_type_code: 'LEGACY', price: 1 },
      { item_type_code: 'LEGACY', price: 2, season: 'SUMMER' },
    ]);
    expect([withinBatch.status, withinBatch.body]).toEqual([
      409,
      conflict('The tariff already has an item LEGACY for season SUMMER'),
    ]);
    const list = await r.owner.client.get(itemsOf(r.tariff.id));
    expect(list.body.data.map((i: { item_type_code: string }) => i.item_type_code)).toEqual(['SERVICE']);
    const [blocks] = await t.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM tariff_blocks b JOIN tariff_items i ON i.id = b.tariff_item_id WHERE i.tariff_id = $1',
      [r.tariff.id],
    );
    expect(blocks?.count).toBe(0);
    const otherSeason = await r.owner.client.post(itemsOf(r.tariff.id), {
      item_type_code: 'SERVICE',
      price: 2,
      season: 'WINTER',
    });
    expect(otherSeason.status).toBe(201);
  });

  it.each([
    [
      { price: 1 },
      'item_type_code: Invalid option: expected one of "TOU_PEAK_ENERGY"|"TOU_OFF_PEAK_ENERGY"|"TOU_STANDARD_ENERGY"|"IMPORT_ENERGY"|"EXPORTED_ENERGY"|"ANCILLARY_SERVICE"|"REACTIVE_ENERGY"|"NETWORK_CAPACITY"|"NETWORK_DEMAND"|"URBAN_LV_SUBSIDY"|"SERVICE"|"ADMINISTRATION"|"RURAL_SUBSIDY"|"LEGACY"|"GENERATION_CAPACITY"|"TRANSMISSION_NETWORK"|"WATER_CONSUMPTION"|"CARBON"|"EV_MIN"|"EV_SESSION_FEE"|"AFFORDABILITY"|"EXCESS_NETWORK_CAPACITY"|"ELECTRIFICATION_AND_RURAL_SUBSIDY"',
    ],
    [{ item_type_code: 'IMPORT_ENERGY' }, 'price: Invalid input: expected number, received undefined'],
    [{ item_type_code: 'IMPORT_ENERGY', price: '1.5' }, 'price: Invalid input: expected number, received string'],
    [{ item_type_code: 'IMPORT_ENERGY', price: 1, season: 'SPRING' }, expect.stringMatching(/^season: Invalid option/)],
    [
      {
        item_type_code: 'IMPORT_ENERGY',
        price: 1,
        blocks: [
          { block_index: 0, upper_limit: null },
          { block_index: 1, upper_limit: 10 },
        ],
      },
      'blocks.0.upper_limit: Only the last tier may have no upper_limit',
    ],
    [
      {
        item_type_code: 'IMPORT_ENERGY',
        price: 1,
        blocks: [
          { block_index: 0, upper_limit: 10 },
          { block_index: 0, upper_limit: 20 },
        ],
      },
      'blocks.1.block_index: Duplicate block_index 0',
    ],
    [
      { item_type_code: 'IMPORT_ENERGY', price: 1, blocks: [{ block_index: 0, unit_price_cents: 1.23456 }] },
      'blocks.0.unit_price_cents: Must have at most 4 decimals',
    ],
    [[], 'body: Too small: expected array to have >=1 items'],
    [
      [{ item_type_code: 'SERVICE', price: 1 }, { item_type_code: 'LEGACY' }],
      '1.price: Invalid input: expected number, received undefined',
    ],
    [['text'], '0: Invalid input: expected object, received string'],
  ])('rejects %j with 400 and creates nothing', async (body, error) => {
    const r = await setup();
    const res = await r.owner.client.post(itemsOf(r.tariff.id), body);
    expect([res.status, res.body]).toEqual([400, invalid(error as string)]);
    expect(await itemCount(r)).toBe(0);
  });
});

describe('list', () => {
  it('pages the items with the list rules and nests their blocks', async () => {
    const r = await setup();
    const created = await createItems(r.owner.client, r.tariff.id, [
      {
        item_type_code: 'IMPORT_ENERGY',
        price: 3,
        blocks: [{ block_index: 0, upper_limit: null, unit_price_cents: 300 }],
      },
      { item_type_code: 'SERVICE', price: 1 },
      { item_type_code: 'LEGACY', price: 2 },
    ]);
    const res = await r.member.client.get(itemsOf(r.tariff.id), { sortBy: 'price', sortOrder: 'asc', limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: [created[1], created[2]], count: 3 });
    const page2 = await r.member.client.get(itemsOf(r.tariff.id), {
      sortBy: 'price',
      sortOrder: 'asc',
      limit: 2,
      page: 2,
    });
    expect(page2.body.data).toEqual([created[0]]);
    const byDefault = await r.member.client.get(itemsOf(r.tariff.id), { account_id: r.accountId });
    expect(byDefault.body.data.map((i: { id: number }) => i.id)).toEqual(
      created.map((i: { id: number }) => i.id).reverse(),
    );
    const search = await r.member.client.get(itemsOf(r.tariff.id), { query: 'legacy' });
    expect(search.body.data).toEqual([created[2]]);
    const tooMany = await r.member.client.get(itemsOf(r.tariff.id), { limit: 101 });
    expect([tooMany.status, tooMany.body]).toEqual([400, invalidQuery('limit: Too big: expected number to be <=100')]);
    const badSort = await r.member.client.get(itemsOf(r.tariff.id), { sortBy: 'name' });
    expect(badSort.status).toBe(400);
  });

  it('lets every signed-in user read catalogue items, and keeps organizations apart', async () => {
    const r = await setup();
    await createItems(r.owner.client, r.tariff.id, { item_type_code: 'SERVICE', price: 1 });
    const catalogue = await r.outsider.client.get(itemsOf(6), { limit: 100, sortBy: 'id', sortOrder: 'asc' });
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.count).toBe(12);
    expect(catalogue.body.data[0]).toEqual({
      id: 601,
      tariff_id: 6,
      item_type_code: 'TOU_PEAK_ENERGY',
      price: 7.0697,
      season: 'WINTER',
      ...UNSET_ITEM_FIELDS,
      tariff_blocks: [],
    });
    const viaCatalogueAccount = await r.outsider.client.get(itemsOf(6), { account_id: CATALOGUE_ACCOUNT_ID });
    expect(viaCatalogueAccount.body.count).toBe(12);
    const outsider = await r.outsider.client.get(itemsOf(r.tariff.id));
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
    const outsiderOwnAccount = await r.outsider.client.get(itemsOf(r.tariff.id), { account_id: r.otherAccountId });
    expect([outsiderOwnAccount.status, outsiderOwnAccount.body]).toEqual([403, FORBIDDEN_FOREIGN]);
    const outsiderNamingUs = await r.outsider.client.get(itemsOf(r.tariff.id), { account_id: r.accountId });
    expect([outsiderNamingUs.status, outsiderNamingUs.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
    const unknown = await r.owner.client.get(itemsOf(999999));
    expect([unknown.status, unknown.body]).toEqual([404, notFound('Tariff')]);
  });
});

describe('update', () => {
  it('changes price, item_type_code and season', async () => {
    const r = await setup();
    const [item] = await createItems(r.owner.client, r.tariff.id, {
      item_type_code: 'IMPORT_ENERGY',
      price: 1,
      blocks: [{ block_index: 0, upper_limit: null, unit_price_cents: 100 }],
    });
    const res = await r.admin.client.put(`${itemsOf(r.tariff.id)}/${item.id}`, {
      account_id: r.accountId,
      price: 1.25,
      item_type_code: 'EXPORTED_ENERGY',
      season: 'WINTER',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: { ...item, price: 1.25, item_type_code: 'EXPORTED_ENERGY', season: 'WINTER' },
    });
    const priceOnly = await r.owner.client.put(`${itemsOf(r.tariff.id)}/${item.id}`, { price: 0.5 });
    expect(priceOnly.body.data).toMatchObject({ price: 0.5, item_type_code: 'EXPORTED_ENERGY', season: 'WINTER' });
  });

  it('answers 409 when the change duplicates another item, 404 for an unknown item or one of another tariff', async () => {
    const r = await setup();
    const [first, second] = await createItems(r.owner.client, r.tariff.id, [
      { item_type_code: 'SERVICE', price: 1, season: 'SUMMER' },
      { item_type_code: 'SERVICE', price: 2, season: 'WINTER' },
    ]);
    const duplicate = await r.owner.client.put(`${itemsOf(r.tariff.id)}/${second.id}`, { season: 'SUMMER' });
    expect([duplicate.status, duplicate.body]).toEqual([
      409,
      conflict('The tariff already has an item SERVICE for season SUMMER'),
    ]);
    const otherTariff = await createTariff(r.owner.client, r.accountId);
    const elsewhere = await r.owner.client.put(`${itemsOf(otherTariff.id)}/${first.id}`, { price: 9 });
    expect([elsewhere.status, elsewhere.body]).toEqual([404, ITEM_NOT_FOUND]);
    const unknown = await r.owner.client.put(`${itemsOf(r.tariff.id)}/999999`, { price: 9 });
    expect([unknown.status, unknown.body]).toEqual([404, ITEM_NOT_FOUND]);
    const invalidSeason = await r.owner.client.put(`${itemsOf(r.tariff.id)}/${first.id}`, { season: 'AUTUMN' });
    expect(invalidSeason.status).toBe(400);
    const list = await r.owner.client.get(itemsOf(r.tariff.id), { sortBy: 'id', sortOrder: 'asc' });
    expect(list.body.data).toEqual([first, second]);
  });
});

describe('delete', () => {
  it('deletes the item and its blocks (204)', async () => {
    const r = await setup();
    const [item, kept] = await createItems(r.owner.client, r.tariff.id, [
      { item_type_code: 'IMPORT_ENERGY', price: 1, blocks: [{ block_index: 0, upper_limit: null }] },
      { item_type_code: 'SERVICE', price: 1 },
    ]);
    const res = await r.admin.client.delete(`${itemsOf(r.tariff.id)}/${item.id}`, { account_id: r.accountId });
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect((await r.owner.client.get(itemsOf(r.tariff.id))).body.data).toEqual([kept]);
    const blocks = await t.db.query('SELECT 1 FROM tariff_blocks WHERE tariff_item_id = $1', [item.id]);
    expect(blocks).toEqual([]);
    const again = await r.admin.client.delete(`${itemsOf(r.tariff.id)}/${item.id}`);
    expect([again.status, again.body]).toEqual([404, ITEM_NOT_FOUND]);
  });
});

describe('access to writes', () => {
  it('answers 403 to MEMBER and non-members and when account_id is not the tariff’s organization; nothing changes', async () => {
    const r = await setup();
    const [item] = await createItems(r.owner.client, r.tariff.id, { item_type_code: 'SERVICE', price: 1 });
    const url = itemsOf(r.tariff.id);
    const attempts: [Promise<{ status: number; body: unknown }>, unknown][] = [
      [r.member.client.post(url, { item_type_code: 'LEGACY', price: 1 }), FORBIDDEN_ROLE],
      [r.member.client.put(`${url}/${item.id}`, { price: 5 }), FORBIDDEN_ROLE],
      [r.member.client.delete(`${url}/${item.id}`), FORBIDDEN_ROLE],
      [r.outsider.client.post(url, { item_type_code: 'LEGACY', price: 1 }), FORBIDDEN_NOT_MEMBER],
      [
        r.outsider.client.post(url, { item_type_code: 'LEGACY', price: 1, account_id: r.otherAccountId }),
        FORBIDDEN_FOREIGN,
      ],
      [r.outsider.client.put(`${url}/${item.id}`, { price: 5, account_id: r.otherAccountId }), FORBIDDEN_FOREIGN],
      [r.outsider.client.delete(`${url}/${item.id}`, { account_id: r.otherAccountId }), FORBIDDEN_FOREIGN],
      [r.outsider.client.delete(`${url}/${item.id}`), FORBIDDEN_NOT_MEMBER],
    ];
    for (const [attempt, body] of attempts) {
      const res = await attempt;
      expect([res.status, res.body]).toEqual([403, body]);
    }
    expect((await r.owner.client.get(url)).body.data).toEqual([item]);
  });

  it('takes account_id from the query or the body; two different ones are a 400', async () => {
    const r = await setup();
    const viaQuery = await call(t.app, 'POST', itemsOf(r.tariff.id), {
      token: r.owner.token,
      query: { account_id: r.accountId },
      body: [{ item_type_code: 'LEGACY', price: 1 }],
    });
    expect(viaQuery.status).toBe(201);
    const mixed = await call(t.app, 'POST', itemsOf(r.tariff.id), {
      token: r.owner.token,
      query: { account_id: r.accountId },
      body: { item_type_code: 'SERVICE', price: 1, account_id: r.otherAccountId },
    });
    expect([mixed.status, mixed.body]).toEqual([
      400,
      invalid('account_id: The query and the body name different organizations'),
    ]);
    expect(await itemCount(r)).toBe(1);
  });

  it('refuses every item write on a catalogue tariff with 400 Catalogue is read-only', async () => {
    const r = await setup();
    const before = (await r.owner.client.get('/api/v1/tariffs/catalogue/6')).body.data;
    const attempts = [
      r.owner.client.post(itemsOf(6), { item_type_code: 'CARBON', price: 1 }),
      r.owner.client.post(itemsOf(6), [{ item_type_code: 'CARBON', price: 1 }]),
      r.owner.client.post(itemsOf(6), { item_type_code: 'CARBON', price: 1, account_id: r.accountId }),
      r.outsider.client.put(`${itemsOf(6)}/601`, { price: 0 }),
      r.owner.client.put(`${itemsOf(6)}/601`, { price: 0, account_id: CATALOGUE_ACCOUNT_ID }),
      r.member.client.delete(`${itemsOf(6)}/601`),
      r.owner.client.delete(`${itemsOf(6)}/601`, { account_id: r.accountId }),
    ];
    for (const attempt of attempts) {
      const res = await attempt;
      expect([res.status, res.body]).toEqual([400, READ_ONLY]);
    }
    expect((await r.owner.client.get('/api/v1/tariffs/catalogue/6')).body.data).toEqual(before);
  });

  it('answers 404 for the items of a deleted tariff', async () => {
    const r = await setup();
    await r.owner.client.delete(`/api/v1/tariffs/${r.tariff.id}`, { account_id: r.accountId });
    const res = await r.owner.client.post(itemsOf(r.tariff.id), { item_type_code: 'SERVICE', price: 1 });
    expect([res.status, res.body]).toEqual([404, notFound('Tariff')]);
  });
});
