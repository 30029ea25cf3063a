import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles, registerUser, type TestUser } from '../../../test/helpers/factories.ts';
import { UNSET_ITEM_FIELDS } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// The catalogue's charges that need the item fields of extensions §11.5 (migration 0011).

let t: TestApp;
let reader: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  reader = await registerUser(t.app);
});
afterAll(async () => t.close());

const base = '/api/v1/tariffs/catalogue';

interface Item {
  id: number;
  item_type_code: string;
  season: string;
  [field: string]: unknown;
}

/** The ids a catalogue search finds, then the first one's read. */
async function found(query: Record<string, unknown>) {
  const list = await reader.client.get(base, { limit: 100, ...query });
  expect(list.status).toBe(200);
  const ids = list.body.data.map((d: { id: number }) => d.id);
  return { ids, read: async (id: number) => (await reader.client.get(`${base}/${id}`)).body.data };
}

/** The item's own fields, without ids and blocks. */
function fieldsOf(items: Item[], id: number) {
  const item = items.find((i) => i.id === id);
  if (!item) throw new Error(`no item ${id}`);
  const { id: _id, tariff_id: _tariff, tariff_blocks: _blocks, ...fields } = item;
  return fields;
}

describe('the catalogue itemised', () => {
  it('has a Megaflex-style tariff whose network charges name their periods and basis, and reactive energy its free ratio', async () => {
    const search = await found({ query: 'Megaflex' });
    expect(search.ids).toEqual([19, 8]);
    const megaflex = await search.read(8);
    expect(megaflex).toMatchObject({ tariff_type: 'TIME_OF_USE', tou_schedule_id: 3, dso: { name: 'Eskom' } });
    expect(megaflex.name).toContain('illustrative');
    expect(megaflex.description).toContain('Illustrative prices');
    const items: Item[] = megaflex.tariff_items;
    expect(items).toHaveLength(20);
    expect(fieldsOf(items, 809)).toEqual({
      item_type_code: 'NETWORK_DEMAND',
      price: 52.3,
      season: 'ALL_YEAR',
      ...UNSET_ITEM_FIELDS,
      demand_periods: ['PEAK', 'STANDARD'],
    });
    expect(fieldsOf(items, 808)).toEqual({
      item_type_code: 'NETWORK_CAPACITY',
      price: 26.45,
      season: 'ALL_YEAR',
      ...UNSET_ITEM_FIELDS,
      demand_basis: 'UTILISED_CAPACITY',
    });
    expect(fieldsOf(items, 820)).toEqual({
      item_type_code: 'EXCESS_NETWORK_CAPACITY',
      price: 52.9,
      season: 'ALL_YEAR',
      ...UNSET_ITEM_FIELDS,
      demand_basis: 'EXCESS',
    });
    // Reactive energy is charged in the high-demand season only: its low-demand item is priced 0.
    const reactive = items.filter((i) => i.item_type_code === 'REACTIVE_ENERGY').map((i) => fieldsOf(items, i.id));
    expect(reactive).toEqual([
      { item_type_code: 'REACTIVE_ENERGY', price: 0.175, season: 'WINTER', ...UNSET_ITEM_FIELDS, free_ratio: 0.3 },
      { item_type_code: 'REACTIVE_ENERGY', price: 0, season: 'SUMMER', ...UNSET_ITEM_FIELDS, free_ratio: 0.3 },
    ]);
    const others = items.filter((i) => ![808, 809, 816, 819, 820].includes(i.id)).map((i) => fieldsOf(items, i.id));
    expect(others).toEqual(others.map(() => expect.objectContaining(UNSET_ITEM_FIELDS)));
  });

  it('has Homeflex 1 with its network demand charge per kWh and its capacity charges per day', async () => {
    const search = await found({ query: 'Homeflex' });
    expect(search.ids).toEqual([17, 6]);
    const homeflex = await search.read(6);
    expect(homeflex.notes).toBeNull();
    expect(homeflex.description).toContain('network demand charge 26.37 c/kWh');
    const items: Item[] = homeflex.tariff_items;
    expect(items.slice(-3).map((i) => fieldsOf(items, i.id))).toEqual([
      { item_type_code: 'NETWORK_DEMAND', price: 0.2637, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS, unit: 'kWh' },
      { item_type_code: 'NETWORK_CAPACITY', price: 12.13, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS, unit: 'day' },
      { item_type_code: 'GENERATION_CAPACITY', price: 0.72, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS, unit: 'day' },
    ]);
    expect(items.map((i) => i.id)).toEqual([601, 602, 603, 604, 605, 606, 607, 608, 609, 610, 611, 612]);
  });

  it('has City Power 2024/25 with its R200 monthly fixed charge beside illustrative energy blocks', async () => {
    const search = await found({ query: 'City Power Prepaid', tariff_type: 'BLOCK' });
    expect(search.ids).toEqual([15, 9]);
    const cityPower = await search.read(15);
    expect(cityPower).toMatchObject({
      name: 'City Power Prepaid Residential 2024/25',
      tariff_type: 'BLOCK',
      effective_from: '2024-07-01',
      effective_to: '2025-06-30',
      dso: { name: 'City Power Johannesburg' },
    });
    expect(cityPower.description).toContain('R200 per month');
    expect(cityPower.description).toContain('illustrative');
    const items: Item[] = cityPower.tariff_items;
    expect(items.map((i) => fieldsOf(items, i.id))).toEqual([
      { item_type_code: 'IMPORT_ENERGY', price: 2.37, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS },
      { item_type_code: 'SERVICE', price: 70, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS, unit: 'month' },
      { item_type_code: 'NETWORK_CAPACITY', price: 130, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS, unit: 'month' },
    ]);
    expect(items[0]!.tariff_blocks).toEqual([
      { id: 15011, tariff_item_id: 1501, block_index: 0, upper_limit: 350, unit_price_cents: 237 },
      { id: 15012, tariff_item_id: 1501, block_index: 1, upper_limit: 500, unit_price_cents: 272 },
      { id: 15013, tariff_item_id: 1501, block_index: 2, upper_limit: null, unit_price_cents: 296 },
    ]);
  });

  it('has Homelight 2024/25 blocks in their decimal cents', async () => {
    const search = await found({ query: 'Homelight 2024/25', tariff_type: 'BLOCK' });
    expect(search.ids).toEqual([2, 1]);
    const tiers = async (id: number) =>
      (await search.read(id)).tariff_items[0].tariff_blocks.map(
        (b: { unit_price_cents: number }) => b.unit_price_cents,
      );
    expect(await tiers(1)).toEqual([190.28, 215.62]);
    expect(await tiers(2)).toEqual([232.31, 394.86]);
  });

  it('gives every time-of-use tariff a schedule and keeps every tariff type', async () => {
    const all = (await reader.client.get(base, { limit: 100 })).body.data as {
      tariff_type: string;
      tou_schedule_id: number | null;
    }[];
    expect(new Set(all.map((d) => d.tariff_type))).toEqual(new Set(['FLAT', 'TIME_OF_USE', 'BLOCK', 'DYNAMIC']));
    for (const tariff of all.filter((d) => d.tariff_type === 'TIME_OF_USE'))
      expect(tariff.tou_schedule_id).not.toBeNull();
  });
});

describe('a clone of an itemised tariff', () => {
  it('copies unit, demand_periods, demand_basis and free_ratio of every item', async () => {
    const r = await organizationWithRoles(t.app);
    for (const id of [6, 8, 15]) {
      const source = (await reader.client.get(`${base}/${id}`)).body.data;
      const res = await r.owner.client.post(`${base}/${id}/clone`, { account_id: r.accountId });
      expect(res.status).toBe(201);
      const copy = res.body.data;
      expect(copy.tariff_items.map((i: Item) => fieldsOf(copy.tariff_items, i.id))).toEqual(
        source.tariff_items.map((i: Item) => fieldsOf(source.tariff_items, i.id)),
      );
      const read = await r.owner.client.get(`/api/v1/tariffs/${copy.id}`, { account_id: r.accountId });
      expect(read.body.data.tariff_items).toEqual(copy.tariff_items);
    }
    const megaflex = (await r.owner.client.get('/api/v1/tariffs', { account_id: r.accountId, query: 'Megaflex' })).body
      .data[0];
    const items = (await r.owner.client.get(`/api/v1/tariffs/${megaflex.id}/items`, { limit: 100 })).body
      .data as Item[];
    expect(items.find((i) => i.item_type_code === 'NETWORK_DEMAND')).toMatchObject({
      demand_periods: ['PEAK', 'STANDARD'],
      demand_basis: null,
    });
  });
});
