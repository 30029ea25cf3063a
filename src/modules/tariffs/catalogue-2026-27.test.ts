import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles, registerUser, type TestUser } from '../../../test/helpers/factories.ts';
import { UNSET_ITEM_FIELDS } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// The catalogue's Eskom tariffs of 2026/27 (migration 0012): Homepower at the published prices
// of the reference, the others at their 2025/26 prices x 1.0876, marked illustrative.

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
  price: number;
  [field: string]: unknown;
}

async function read(id: number) {
  const res = await reader.client.get(`${base}/${id}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    name: string;
    description: string;
    notes: string | null;
    effective_from: string;
    effective_to: string;
    tariff_items: Item[];
  };
}

/** The item's own fields, without ids and blocks. */
function fieldsOf(item: Item) {
  const { id: _id, tariff_id: _tariff, tariff_blocks: _blocks, ...fields } = item;
  return fields;
}

/** Charges per day or per kVA per month, in Rand to the cent. */
const PER_DAY_OR_KVA = [
  'SERVICE',
  'ADMINISTRATION',
  'TRANSMISSION_NETWORK',
  'NETWORK_CAPACITY',
  'NETWORK_DEMAND',
  'URBAN_LV_SUBSIDY',
  'GENERATION_CAPACITY',
  'EXCESS_NETWORK_CAPACITY',
];

/** The decimals of an item's price in Rand: to the cent per day or kVA, to a hundredth of a cent per kWh or kvarh. */
const decimalsOf = (item: Item) => (PER_DAY_OR_KVA.includes(item.item_type_code) && item.unit !== 'kWh' ? 2 : 4);

const byType = (items: Item[], type: string, season = 'ALL_YEAR') =>
  items.find((i) => i.item_type_code === type && i.season === season)!;

describe('the 2026/27 Eskom tariffs of the catalogue', () => {
  it('lists Homepower, Homeflex 1, Miniflex and Megaflex from 1 April 2026 to 31 March 2027, beside the 2025/26 ones', async () => {
    const res = await reader.client.get(base, {
      effective_from_gte: '2026-04-01',
      meter_type: 'ELECTRICITY',
      limit: 100,
    });
    expect(res.status).toBe(200);
    expect(
      res.body.data.map((d: Record<string, unknown>) => [
        d.id,
        d.name,
        d.effective_from,
        d.effective_to,
        d.tariff_type,
      ]),
    ).toEqual([
      [19, 'Eskom Megaflex 2026/27 (illustrative)', '2026-04-01', '2027-03-31', 'TIME_OF_USE'],
      [18, 'Eskom Miniflex 2026/27 (illustrative)', '2026-04-01', '2027-03-31', 'TIME_OF_USE'],
      [17, 'Eskom Homeflex 1 2026/27 (illustrative)', '2026-04-01', '2027-03-31', 'TIME_OF_USE'],
      [16, 'Eskom Homepower 2026/27', '2026-04-01', '2027-03-31', 'FLAT'],
    ]);
    for (const tariff of res.body.data.filter((d: { tariff_type: string }) => d.tariff_type === 'TIME_OF_USE')) {
      expect(tariff).toMatchObject({ tou_schedule_id: 3, dso_id: 1, tax_rate: 15, currency: 'ZAR' });
    }
    for (const id of [5, 6, 7, 8]) {
      expect(await read(id)).toMatchObject({ effective_from: '2025-04-01', effective_to: '2026-03-31' });
    }
  });

  it('prices Homepower as published: 322.06 c/kWh energy, 32.98 c/kWh network demand, 0.52 c/kWh ancillary, R6.60 per day', async () => {
    const homepower = await read(16);
    expect(homepower.description).not.toContain('llustrative');
    expect(homepower.notes).toContain('secondary source');
    expect(homepower.tariff_items.map(fieldsOf)).toEqual([
      { item_type_code: 'IMPORT_ENERGY', price: 3.2206, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS },
      { item_type_code: 'NETWORK_DEMAND', price: 0.3298, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS, unit: 'kWh' },
      { item_type_code: 'ANCILLARY_SERVICE', price: 0.0052, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS },
      { item_type_code: 'SERVICE', price: 6.6, season: 'ALL_YEAR', ...UNSET_ITEM_FIELDS },
    ]);
  });

  it('prices Homeflex 1 at its 2025/26 prices x 1.0876, marked illustrative', async () => {
    const homeflex = await read(17);
    expect(homeflex.description).toContain('Illustrative');
    const items = homeflex.tariff_items;
    // 706.97 c/kWh x 1.0876 = 768.900... -> 768.90; 159.26 x 1.0876 = 173.211... -> 173.21.
    expect(byType(items, 'TOU_PEAK_ENERGY', 'WINTER').price).toBe(7.689);
    expect(byType(items, 'TOU_OFF_PEAK_ENERGY', 'SUMMER').price).toBe(1.7321);
    // 26.37 c/kWh x 1.0876 = 28.680... -> 28.68, still per kWh.
    expect(fieldsOf(byType(items, 'NETWORK_DEMAND'))).toEqual({
      item_type_code: 'NETWORK_DEMAND',
      price: 0.2868,
      season: 'ALL_YEAR',
      ...UNSET_ITEM_FIELDS,
      unit: 'kWh',
    });
    // R12.13 x 1.0876 = 13.192... -> R13.19 per day; R0.72 x 1.0876 = 0.783... -> R0.78; R3.27 -> 3.556... -> R3.56.
    expect(byType(items, 'NETWORK_CAPACITY')).toMatchObject({ price: 13.19, unit: 'day' });
    expect(byType(items, 'GENERATION_CAPACITY')).toMatchObject({ price: 0.78, unit: 'day' });
    expect(byType(items, 'SERVICE').price).toBe(3.56);
  });

  it.each([
    [17, 6],
    [18, 7],
    [19, 8],
  ])(
    'gives entry %i every item of entry %i, its price x 1.0876 to the cent or the hundredth of a cent',
    async (id, previousId) => {
      const [current, previous] = [await read(id), await read(previousId)];
      expect(current.tariff_items.map((i) => ({ ...fieldsOf(i), price: expect.any(Number) }))).toEqual(
        previous.tariff_items.map((i) => ({
          ...fieldsOf(i),
          price: expect.any(Number),
          // The Megaflex 2026/27 network demand charge names its basis (the month's maximum) outright.
          ...(id === 19 && i.item_type_code === 'NETWORK_DEMAND' ? { demand_basis: 'MONTH_MAX' } : {}),
          // and its transmission, urban low-voltage subsidy and generation capacity charges are on utilised capacity.
          ...(id === 19 &&
          ['TRANSMISSION_NETWORK', 'URBAN_LV_SUBSIDY', 'GENERATION_CAPACITY'].includes(i.item_type_code)
            ? { demand_basis: 'UTILISED_CAPACITY' }
            : {}),
          // and its high-demand season's reactive energy counts the kvarh of peak and standard periods.
          ...(id === 19 && i.item_type_code === 'REACTIVE_ENERGY' && i.season === 'WINTER'
            ? { demand_periods: ['PEAK', 'STANDARD'] }
            : {}),
        })),
      );
      current.tariff_items.forEach((item, n) => {
        const before = previous.tariff_items[n]!.price;
        const scale = 10 ** decimalsOf(item);
        expect([item.item_type_code, item.season, item.price]).toEqual([
          item.item_type_code,
          item.season,
          Math.round(before * 1.0876 * scale) / scale,
        ]);
      });
    },
  );

  it('bills Megaflex as Eskom defines it: network demand on the peak and standard maximum, four charges on utilised capacity', async () => {
    const megaflex = await read(19);
    expect(megaflex.description).toContain('Illustrative');
    const items = megaflex.tariff_items;
    // 52.30 x 1.0876 = 56.881... -> R56.88/kVA/month.
    expect(fieldsOf(byType(items, 'NETWORK_DEMAND'))).toEqual({
      item_type_code: 'NETWORK_DEMAND',
      price: 56.88,
      season: 'ALL_YEAR',
      ...UNSET_ITEM_FIELDS,
      demand_periods: ['PEAK', 'STANDARD'],
      demand_basis: 'MONTH_MAX',
    });
    // 13.62 -> 14.813... -> 14.81; 26.45 -> 28.767... -> 28.77; 21.14 -> 22.991... -> 22.99; 3.85 -> 4.187... -> 4.19.
    expect(
      items
        .filter((i) => i.demand_basis === 'UTILISED_CAPACITY')
        .map((i) => [i.item_type_code, i.price, i.demand_periods]),
    ).toEqual([
      ['TRANSMISSION_NETWORK', 14.81, null],
      ['NETWORK_CAPACITY', 28.77, null],
      ['URBAN_LV_SUBSIDY', 22.99, null],
      ['GENERATION_CAPACITY', 4.19, null],
    ]);
    // 52.90 -> 57.534... -> 57.53 per kVA above the NMD.
    expect(byType(items, 'EXCESS_NETWORK_CAPACITY')).toMatchObject({ price: 57.53, demand_basis: 'EXCESS' });
    // 17.50 c/kvarh -> 19.033... -> 19.03, in the high-demand season only, on the kvarh of peak and
    // standard periods above 30% of their kWh.
    expect(
      items
        .filter((i) => i.item_type_code === 'REACTIVE_ENERGY')
        .map((i) => [i.season, i.price, i.free_ratio, i.demand_periods]),
    ).toEqual([
      ['WINTER', 0.1903, 0.3, ['PEAK', 'STANDARD']],
      ['SUMMER', 0, 0.3, null],
    ]);
  });
});

describe('a clone of Megaflex 2026/27', () => {
  it('keeps the bases of every demand charge', async () => {
    const r = await organizationWithRoles(t.app);
    const res = await r.owner.client.post(`${base}/19/clone`, { account_id: r.accountId });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ cloned_from: 19, effective_from: '2026-04-01', effective_to: '2027-03-31' });
    const items = await r.owner.client.get(`/api/v1/tariffs/${res.body.data.id}/items`, {
      limit: 100,
      sortBy: 'id',
      sortOrder: 'asc',
    });
    expect(items.status).toBe(200);
    const demand = (items.body.data as Item[])
      .filter((i) => i.demand_basis !== null)
      .map((i) => [i.item_type_code, i.demand_basis, i.demand_periods]);
    expect(demand).toEqual([
      ['TRANSMISSION_NETWORK', 'UTILISED_CAPACITY', null],
      ['NETWORK_CAPACITY', 'UTILISED_CAPACITY', null],
      ['NETWORK_DEMAND', 'MONTH_MAX', ['PEAK', 'STANDARD']],
      ['URBAN_LV_SUBSIDY', 'UTILISED_CAPACITY', null],
      ['GENERATION_CAPACITY', 'UTILISED_CAPACITY', null],
      ['EXCESS_NETWORK_CAPACITY', 'EXCESS', null],
    ]);
  });
});
