import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  invalid,
  invalidPath,
  invalidQuery,
  notFound,
  READ_ONLY,
} from '../../../test/helpers/envelopes.ts';
import {
  type OrganizationWithRoles,
  organizationWithRoles,
  registerUser,
  type TestUser,
} from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { UNSET_ITEM_FIELDS } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { CATALOGUE_ACCOUNT_ID } from './tariffs.model.ts';

let t: TestApp;
/** A signed-in user of no organization, for the tests that only read the catalogue. */
let reader: TestUser;
/** For the tests that neither count nor list the organization's tariffs. */
let shared: OrganizationWithRoles;
beforeAll(async () => {
  t = await startTestApp();
  [reader, shared] = await Promise.all([registerUser(t.app), organizationWithRoles(t.app)]);
});
afterAll(async () => t.close());

const base = '/api/v1/tariffs/catalogue';
const CATALOGUE_NOT_FOUND = notFound('Catalogue tariff');
const ALL_IDS = [22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

interface Tariff {
  id: number;
  tariff_items: { id: number; tariff_id: number; tariff_blocks: { id: number; tariff_item_id: number }[] }[];
  [field: string]: unknown;
}

/** The items and blocks of a tariff without their ids: what a copy must reproduce exactly. */
function contentOf(tariff: Tariff) {
  return tariff.tariff_items.map(({ id: _id, tariff_id: _tariff, tariff_blocks, ...item }) => ({
    ...item,
    tariff_blocks: tariff_blocks.map(({ id: _block, tariff_item_id: _item, ...block }) => block),
  }));
}

describe('list', () => {
  it('pages the catalogue 10 at a time, newest first with ties broken by id, for any signed-in user', async () => {
    const user = reader;
    const res = await user.client.get(base);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(22);
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(ALL_IDS.slice(0, 10));
    expect(res.body.data[0]).not.toHaveProperty('tariff_items');
    expect(res.body.data.every((d: { account_id: string }) => d.account_id === CATALOGUE_ACCOUNT_ID)).toBe(true);
    const page2 = await user.client.get(base, { page: 2 });
    expect(page2.body.data.map((d: { id: number }) => d.id)).toEqual(ALL_IDS.slice(10, 20));
    const asc = await user.client.get(base, { sortBy: 'id', sortOrder: 'asc', limit: 3 });
    expect(asc.body.data.map((d: { id: number }) => d.id)).toEqual([1, 2, 3]);
    const unauthenticated = await call(t.app, 'GET', base);
    expect(unauthenticated.status).toBe(401);
  });

  it('does not list organizations’ tariffs, clones included', async () => {
    const r = shared;
    await r.owner.client.post(`${base}/1/clone`, { account_id: r.accountId });
    const res = await r.owner.client.get(base, { limit: 100 });
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(ALL_IDS);
  });

  it.each([
    [{ meter_type: 'WATER' }, [22, 21, 20, 13]],
    [{ meter_type: 'SOLAR' }, [12]],
    [{ meter_type: 'HVAC' }, []],
    [{ meter_type: 'EV' }, []],
    [{ tariff_type: 'DYNAMIC' }, [14]],
    [{ tariff_type: 'TIME_OF_USE' }, [19, 18, 17, 10, 8, 7, 6]],
    [{ tariff_type: 'BLOCK' }, [20, 15, 13, 9, 2, 1]],
    [{ dso_id: 3 }, [22, 21, 20, 13, 12, 11]],
    [{ effective_from_gte: '2025-07-01' }, [22, 21, 20, 19, 18, 17, 16, 14, 13, 12, 11, 10]],
    [{ effective_from_gte: '2026-04-01' }, [22, 20, 19, 18, 17, 16]],
    [{ effective_from_lte: '2024-04-01' }, [9, 2, 1]],
    [{ effective_from_gte: '2024-04-01', effective_from_lte: '2025-04-01', tariff_type: 'FLAT' }, [5, 4, 3]],
    [{ query: 'dynamic' }, [14]],
    [{ query: 'feed-in' }, [12]],
    [{ query: 'HOMFLEX' }, [17, 6]],
    [{ query: 'Cape Town', tariff_type: 'FLAT' }, [22, 21, 12, 11]],
    [{ query: 'zzzzqqq' }, []],
  ])('filters with %j', async (query, ids) => {
    const user = reader;
    const res = await user.client.get(base, { limit: 100, ...query });
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: { id: number }) => d.id)).toEqual(ids);
    expect(res.body.count).toBe(ids.length);
  });

  it.each([
    [{ limit: 101 }, 'limit: Too big: expected number to be <=100'],
    [{ page: 0 }, 'page: Too small: expected number to be >=1'],
    [{ sortBy: 'price' }, expect.stringMatching(/^sortBy: Invalid option/)],
    [{ tariff_type: 'SPOT' }, expect.stringMatching(/^tariff_type: Invalid option/)],
    [{ effective_from_gte: 'yesterday' }, 'effective_from_gte: Invalid ISO date'],
  ])('rejects %j with 400', async (query, error) => {
    const user = reader;
    const res = await user.client.get(base, query);
    expect([res.status, res.body]).toEqual([400, invalidQuery(error as string)]);
  });
});

describe('read', () => {
  it('answers a catalogue tariff with its items, blocks and DSO', async () => {
    const user = reader;
    const res = await user.client.get(`${base}/1`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: 1,
      name: 'Eskom Homelight 20A 2024/25',
      account_id: CATALOGUE_ACCOUNT_ID,
      tariff_type: 'BLOCK',
      tax_rate: 15,
      effective_from: '2024-04-01',
      effective_to: '2025-03-31',
      dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
    });
    expect(res.body.data.tariff_items).toEqual([
      {
        id: 101,
        tariff_id: 1,
        item_type_code: 'IMPORT_ENERGY',
        price: 1.9028,
        season: 'ALL_YEAR',
        ...UNSET_ITEM_FIELDS,
        tariff_blocks: [
          { id: 1011, tariff_item_id: 101, block_index: 0, upper_limit: 350, unit_price_cents: 190.28 },
          { id: 1012, tariff_item_id: 101, block_index: 1, upper_limit: null, unit_price_cents: 215.62 },
        ],
      },
    ]);
    const tou = await user.client.get(`${base}/6`);
    expect(tou.body.data.tariff_items).toHaveLength(12);
  });

  it('answers 404 for an unknown id and for an organization’s tariff, 400 for a bad id', async () => {
    const r = shared;
    const own = await r.owner.client.post('/api/v1/tariffs', {
      account_id: r.accountId,
      name: 'Mine',
      effective_from: '2025-01-01',
      effective_to: '2025-12-31',
    });
    for (const id of [999, own.body.data.id]) {
      const res = await r.owner.client.get(`${base}/${id}`);
      expect([res.status, res.body]).toEqual([404, CATALOGUE_NOT_FOUND]);
    }
    const bad = await r.owner.client.get(`${base}/-3`);
    expect([bad.status, bad.body]).toEqual([400, invalidPath('id: Must be a whole number in plain decimal digits')]);
  });
});

describe('clone', () => {
  it('copies the tariff, its items and blocks exactly into the organization, under the source name by default', async () => {
    const r = shared;
    const source: Tariff = (await r.owner.client.get(`${base}/13`)).body.data;
    const res = await r.admin.client.post(`${base}/13/clone`, { account_id: r.accountId });
    expect(res.status).toBe(201);
    const copy: Tariff = res.body.data;
    const {
      id: _id,
      account_id: _account,
      cloned_from: _from,
      created_at: _c,
      updated_at: _u,
      tariff_items: _i,
      ...fields
    } = source;
    expect(copy).toMatchObject({ ...fields, account_id: r.accountId, cloned_from: 13 });
    expect(copy.id).toBeGreaterThan(1000);
    expect(contentOf(copy)).toEqual(contentOf(source));
    expect(copy.tariff_items.every((i) => i.tariff_id === copy.id && i.id !== 1301)).toBe(true);
    expect(copy.tariff_items[0]!.tariff_blocks.every((b) => b.tariff_item_id === copy.tariff_items[0]!.id)).toBe(true);

    const read = await r.member.client.get(`/api/v1/tariffs/${copy.id}`, { account_id: r.accountId });
    expect(read.body.data).toEqual(copy);
    expect((await r.owner.client.get(`${base}/13`)).body.data).toEqual(source);
  });

  it('copies decimal-cent block prices exactly (Homelight 60A 2024/25: 232.31 and 394.86 c/kWh)', async () => {
    const r = await organizationWithRoles(t.app);
    const res = await r.owner.client.post(`${base}/2/clone`, { account_id: r.accountId });
    expect(res.status).toBe(201);
    const blocks = res.body.data.tariff_items[0].tariff_blocks;
    expect(blocks.map(({ id: _id, tariff_item_id: _item, ...block }: Record<string, unknown>) => block)).toEqual([
      { block_index: 0, upper_limit: 600, unit_price_cents: 232.31 },
      { block_index: 1, upper_limit: null, unit_price_cents: 394.86 },
    ]);
  });

  it('copies every item of a time-of-use tariff and takes the given name', async () => {
    const r = shared;
    const source: Tariff = (await r.owner.client.get(`${base}/8`)).body.data;
    const res = await r.owner.client.post(`${base}/8/clone`, { account_id: r.accountId, name: 'Our Megaflex' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: 'Our Megaflex',
      tariff_type: 'TIME_OF_USE',
      tou_schedule_id: 3,
      cloned_from: 8,
    });
    expect(contentOf(res.body.data)).toEqual(contentOf(source));
    expect(res.body.data.tariff_items).toHaveLength(20);
  });

  it('makes a fully mutable tariff: its fields, items and blocks can change and it can be deleted', async () => {
    const r = await organizationWithRoles(t.app);
    const copy: Tariff = (await r.owner.client.post(`${base}/1/clone`, { account_id: r.accountId })).body.data;
    const item = copy.tariff_items[0]!;
    const tariffs = '/api/v1/tariffs';
    const updated = await r.owner.client.put(`${tariffs}/${copy.id}`, {
      account_id: r.accountId,
      name: 'Edited',
      tax_rate: 0,
    });
    expect(updated.body.data).toMatchObject({ name: 'Edited', tax_rate: 0, cloned_from: 1 });
    expect((await r.owner.client.put(`${tariffs}/${copy.id}/items/${item.id}`, { price: 2 })).status).toBe(200);
    expect(
      (await r.owner.client.post(`${tariffs}/${copy.id}/items/${item.id}/blocks`, [{ block_index: 0 }])).status,
    ).toBe(201);
    expect(
      (await r.owner.client.post(`${tariffs}/${copy.id}/items`, { item_type_code: 'SERVICE', price: 1 })).status,
    ).toBe(201);
    expect((await r.owner.client.delete(`${tariffs}/${copy.id}/items/${item.id}`)).status).toBe(204);
    expect((await r.owner.client.delete(`${tariffs}/${copy.id}`, { account_id: r.accountId })).status).toBe(204);
    const source = (await r.owner.client.get(`${base}/1`)).body.data;
    expect(source.tariff_items[0].price).toBe(1.9028);
    expect(source.tariff_items[0].tariff_blocks).toHaveLength(2);
  });

  it('answers 403 to MEMBER and non-members, 400 for the catalogue as destination, 404 for an unknown source', async () => {
    const r = await organizationWithRoles(t.app);
    const member = await r.member.client.post(`${base}/1/clone`, { account_id: r.accountId });
    expect([member.status, member.body]).toEqual([403, FORBIDDEN_ROLE]);
    const outsider = await r.outsider.client.post(`${base}/1/clone`, { account_id: r.accountId });
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
    const intoCatalogue = await r.owner.client.post(`${base}/1/clone`, { account_id: CATALOGUE_ACCOUNT_ID });
    expect([intoCatalogue.status, intoCatalogue.body]).toEqual([400, READ_ONLY]);
    const unknown = await r.owner.client.post(`${base}/999/clone`, { account_id: r.accountId });
    expect([unknown.status, unknown.body]).toEqual([404, CATALOGUE_NOT_FOUND]);
    const own = (await r.owner.client.post(`${base}/3/clone`, { account_id: r.accountId })).body.data;
    const ofOrganization = await r.owner.client.post(`${base}/${own.id}/clone`, { account_id: r.accountId });
    expect([ofOrganization.status, ofOrganization.body]).toEqual([404, CATALOGUE_NOT_FOUND]);
    const badBody = await r.owner.client.post(`${base}/1/clone`, { account_id: 'x', name: '' });
    expect([badBody.status, badBody.body]).toEqual([
      400,
      invalid('account_id: Invalid UUID; name: Too small: expected string to have >=1 characters'),
    ]);
    const list = await r.owner.client.get('/api/v1/tariffs', { account_id: r.accountId });
    expect(list.body.data.map((d: { id: number }) => d.id)).toEqual([own.id]);
  });

  it('is atomic: when copying a block fails, neither the tariff nor its items remain', async () => {
    const r = await organizationWithRoles(t.app);
    // Catalogue tariff 13's last block (15840 cents) breaks this check, which spares existing rows.
    await t.db.query(
      'ALTER TABLE tariff_blocks ADD CONSTRAINT test_block_price_cap CHECK (unit_price_cents < 15000) NOT VALID',
    );
    try {
      const res = await r.owner.client.post(`${base}/13/clone`, { account_id: r.accountId });
      expect(res.status).toBe(400);
    } finally {
      await t.db.query('ALTER TABLE tariff_blocks DROP CONSTRAINT test_block_price_cap');
    }
    expect((await r.owner.client.get('/api/v1/tariffs', { account_id: r.accountId })).body.count).toBe(0);
    const leftovers = await t.db.query('SELECT 1 FROM tariffs WHERE account_id = $1', [r.accountId]);
    expect(leftovers).toEqual([]);
  });
});

describe('the catalogue is read-only', () => {
  it('refuses every write path on catalogue tariffs with 400 and changes nothing', async () => {
    const r = shared;
    const before = await Promise.all([1, 6].map(async (id) => (await r.owner.client.get(`${base}/${id}`)).body.data));
    const tariffs = '/api/v1/tariffs';
    const writes = [
      r.owner.client.post(tariffs, {
        account_id: CATALOGUE_ACCOUNT_ID,
        name: 'X',
        effective_from: '2025-01-01',
        effective_to: '2025-12-31',
      }),
      r.owner.client.put(`${tariffs}/1`, { account_id: r.accountId, name: 'X' }),
      r.owner.client.delete(`${tariffs}/1`, { account_id: r.accountId }),
      r.owner.client.post(`${tariffs}/6/items`, { item_type_code: 'CARBON', price: 1 }),
      r.owner.client.put(`${tariffs}/6/items/601`, { price: 1 }),
      r.owner.client.delete(`${tariffs}/6/items/601`),
      r.owner.client.post(`${tariffs}/1/items/101/blocks`, []),
      r.owner.client.put(`${tariffs}/1/items/101/blocks/1011`, { unit_price_cents: 1 }),
      r.owner.client.delete(`${tariffs}/1/items/101/blocks/1011`),
      r.owner.client.post(`${base}/1/clone`, { account_id: CATALOGUE_ACCOUNT_ID }),
    ];
    for (const write of writes) {
      const res = await write;
      expect([res.status, res.body]).toEqual([400, READ_ONLY]);
    }
    const after = await Promise.all([1, 6].map(async (id) => (await r.owner.client.get(`${base}/${id}`)).body.data));
    expect(after).toEqual(before);
    expect((await r.owner.client.get(base)).body.count).toBe(22);
  });

  it('holds only tariffs that pass the same validation as an organization’s tariffs', async () => {
    const r = await organizationWithRoles(t.app);
    const catalogue = (await r.owner.client.get(base, { limit: 100 })).body.data as { id: number }[];
    for (const { id } of catalogue) {
      const source: Tariff = (await r.owner.client.get(`${base}/${id}`)).body.data;
      const {
        id: _id,
        account_id: _a,
        cloned_from: _c,
        created_at: _ca,
        updated_at: _ua,
        has_transition: _ht,
        tariff_items,
        dso: _d,
        ...fields
      } = source;
      const created = await r.owner.client.post('/api/v1/tariffs', { ...fields, account_id: r.accountId });
      expect([id, created.status]).toEqual([id, 201]);
      const items = contentOf(source).map(({ tariff_blocks, ...item }) => ({ ...item, blocks: tariff_blocks }));
      const added = await r.owner.client.post(`/api/v1/tariffs/${created.body.data.id}/items`, items);
      expect([id, added.status]).toEqual([id, 201]);
      const copy = (await r.owner.client.get(`/api/v1/tariffs/${created.body.data.id}`, { account_id: r.accountId }))
        .body.data;
      expect(contentOf(copy)).toEqual(contentOf({ ...source, tariff_items }));
    }
  });
});
