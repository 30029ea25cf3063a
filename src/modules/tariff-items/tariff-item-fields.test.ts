import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff, UNSET_ITEM_FIELDS } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// The item fields of extensions §11.5: unit, demand_periods, demand_basis, free_ratio.

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const itemsOf = (tariffId: number) => `/api/v1/tariffs/${tariffId}/items`;
const TOU = { tariff_type: 'TIME_OF_USE', tou_schedule_id: 3 };
const NOT_TOU = 'Only the items of a TIME_OF_USE tariff may have demand_periods';

async function touTariff() {
  return createTariff(r.owner.client, r.accountId, TOU);
}

async function itemsRead(tariffId: number) {
  return (await r.owner.client.get(`/api/v1/tariffs/${tariffId}`, { account_id: r.accountId })).body.data.tariff_items;
}

describe('create and read', () => {
  it('stores each field, answers it on create, in the item list and nested in the tariff read', async () => {
    const tariff = await touTariff();
    const res = await r.owner.client.post(itemsOf(tariff.id), [
      {
        item_type_code: 'NETWORK_DEMAND',
        price: 52.3,
        season: 'ALL_YEAR',
        demand_periods: ['STANDARD', 'PEAK'],
      },
      { item_type_code: 'NETWORK_CAPACITY', price: 26.45, season: 'ALL_YEAR', demand_basis: 'UTILISED_CAPACITY' },
      { item_type_code: 'REACTIVE_ENERGY', price: 0.175, season: 'WINTER', free_ratio: 0.3 },
      { item_type_code: 'GENERATION_CAPACITY', price: 0.72, season: 'ALL_YEAR', unit: 'day' },
      {
        item_type_code: 'SERVICE',
        price: 200,
        season: 'ALL_YEAR',
        unit: 'month',
        demand_periods: null,
        demand_basis: null,
        free_ratio: null,
      },
      { item_type_code: 'LEGACY', price: 0.2278, season: 'ALL_YEAR' },
    ]);
    expect(res.status).toBe(201);
    const item = (fields: Record<string, unknown>) => ({
      id: expect.any(Number),
      tariff_id: tariff.id,
      ...UNSET_ITEM_FIELDS,
      ...fields,
      tariff_blocks: [],
    });
    const expected = [
      item({
        item_type_code: 'NETWORK_DEMAND',
        price: 52.3,
        season: 'ALL_YEAR',
        demand_periods: ['PEAK', 'STANDARD'],
      }),
      item({ item_type_code: 'NETWORK_CAPACITY', price: 26.45, season: 'ALL_YEAR', demand_basis: 'UTILISED_CAPACITY' }),
      item({ item_type_code: 'REACTIVE_ENERGY', price: 0.175, season: 'WINTER', free_ratio: 0.3 }),
      item({ item_type_code: 'GENERATION_CAPACITY', price: 0.72, season: 'ALL_YEAR', unit: 'day' }),
      item({ item_type_code: 'SERVICE', price: 200, season: 'ALL_YEAR', unit: 'month' }),
      item({ item_type_code: 'LEGACY', price: 0.2278, season: 'ALL_YEAR' }),
    ];
    expect(res.body).toEqual({ success: true, message: null, data: expected });
    // The item read's keys, in this order.
    expect(Object.keys(res.body.data[0])).toEqual([
      'id',
      'tariff_id',
      'item_type_code',
      'price',
      'season',
      'unit',
      'demand_periods',
      'demand_basis',
      'free_ratio',
      'volume_share',
      'max_kl',
      'tariff_blocks',
    ]);
    const list = await r.member.client.get(itemsOf(tariff.id), { sortBy: 'id', sortOrder: 'asc' });
    expect(list.body).toEqual({ success: true, message: null, data: res.body.data, count: 6 });
    expect(await itemsRead(tariff.id)).toEqual(res.body.data);
  });

  it('takes a kVA/month unit on any item type for demand_basis, and on a TIME_OF_USE tariff for demand_periods', async () => {
    const tariff = await touTariff();
    const [item] = await createItems(r.owner.client, tariff.id, {
      item_type_code: 'SERVICE',
      price: 10,
      unit: 'kVA/month',
      demand_periods: ['OFF_PEAK', 'PEAK', 'STANDARD'],
      demand_basis: 'NMD',
    });
    expect(item).toMatchObject({
      unit: 'kVA/month',
      demand_periods: ['PEAK', 'STANDARD', 'OFF_PEAK'],
      demand_basis: 'NMD',
      free_ratio: null,
    });
    const flat = await createTariff(r.owner.client, r.accountId);
    const [excess] = await createItems(r.owner.client, flat.id, {
      item_type_code: 'EXCESS_NETWORK_CAPACITY',
      price: 52.9,
      demand_basis: 'EXCESS',
    });
    expect(excess).toMatchObject({ unit: null, demand_periods: null, demand_basis: 'EXCESS' });
    const [bounds] = await createItems(r.owner.client, flat.id, [
      { item_type_code: 'REACTIVE_ENERGY', price: 0.1, season: 'WINTER', free_ratio: 0 },
      { item_type_code: 'REACTIVE_ENERGY', price: 0.1, season: 'SUMMER', free_ratio: 1 },
      { item_type_code: 'IMPORT_ENERGY', price: 0.1, unit: 'kvarh', free_ratio: 0.1234 },
    ]);
    expect(bounds.free_ratio).toBe(0);
  });
});

describe('reactive energy of the demand periods (extensions §12.1)', () => {
  it('takes demand_periods on a kvarh item of a TIME_OF_USE tariff, with a free ratio', async () => {
    const tariff = await touTariff();
    const [reactive, perKvarh] = await createItems(r.owner.client, tariff.id, [
      {
        item_type_code: 'REACTIVE_ENERGY',
        price: 0.175,
        season: 'WINTER',
        free_ratio: 0.3,
        demand_periods: ['STANDARD', 'PEAK'],
      },
      { item_type_code: 'LEGACY', price: 0.1, unit: 'kvarh', demand_periods: ['OFF_PEAK'] },
    ]);
    expect(reactive).toMatchObject({ unit: null, demand_periods: ['PEAK', 'STANDARD'], free_ratio: 0.3 });
    expect(perKvarh).toMatchObject({ unit: 'kvarh', demand_periods: ['OFF_PEAK'] });
    expect(await itemsRead(tariff.id)).toEqual([reactive, perKvarh]);
  });

  it('refuses them on a kvarh item of a tariff that is not TIME_OF_USE', async () => {
    const flat = await createTariff(r.owner.client, r.accountId);
    const res = await r.owner.client.post(itemsOf(flat.id), [
      { item_type_code: 'REACTIVE_ENERGY', price: 0.175, demand_periods: ['PEAK'] },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`0.demand_periods: ${NOT_TOU}`));
  });
});

describe('a seasonal item the tariff can never apply (extensions §12.1)', () => {
  const NEVER =
    'Items that can never apply, as no day has their season and their type has other items: IMPORT_ENERGY SUMMER, IMPORT_ENERGY WINTER (the tariff has no DSO, so no seasons)';

  it('is stored, and the write says it can never apply on a tariff without a DSO', async () => {
    const tariff = await createTariff(r.owner.client, r.accountId);
    const res = await r.owner.client.post(itemsOf(tariff.id), [
      { item_type_code: 'IMPORT_ENERGY', price: 2, season: 'SUMMER' },
      { item_type_code: 'IMPORT_ENERGY', price: 3, season: 'WINTER' },
      { item_type_code: 'SERVICE', price: 3, season: 'WINTER' },
      { item_type_code: 'LEGACY', price: 0.2, season: 'ALL_YEAR' },
    ]);
    expect(res.status).toBe(201);
    // The single SERVICE item applies to every day whatever its season; ALL_YEAR items always.
    expect(res.body.message).toBe(NEVER);
    expect(res.body.data).toHaveLength(4);
    const update = await r.owner.client.put(`${itemsOf(tariff.id)}/${res.body.data[1].id}`, { price: 3.5 });
    expect(update.status).toBe(200);
    expect(update.body.message).toBe(NEVER);
  });

  it("names the season the tariff's DSO does not have; says nothing when every item can apply", async () => {
    const tariff = await createTariff(r.owner.client, r.accountId, { dso_id: 1 });
    const res = await r.owner.client.post(itemsOf(tariff.id), [
      { item_type_code: 'IMPORT_ENERGY', price: 2, season: 'SUMMER' },
      { item_type_code: 'IMPORT_ENERGY', price: 3, season: 'WINTER' },
    ]);
    expect(res.body).toMatchObject({ success: true, message: null });
    const transition = await r.owner.client.post(itemsOf(tariff.id), [
      { item_type_code: 'IMPORT_ENERGY', price: 4, season: 'TRANSITION' },
    ]);
    expect(transition.status).toBe(201);
    expect(transition.body.message).toBe(
      "Items that can never apply, as no day has their season and their type has other items: IMPORT_ENERGY TRANSITION (the tariff's DSO has no such season)",
    );
  });
});

describe('validation (400 naming the field; nothing is created)', () => {
  async function itemCount(tariffId: number) {
    return (await r.owner.client.get(itemsOf(tariffId))).body.count;
  }

  it.each([
    [
      { item_type_code: 'NETWORK_CAPACITY', price: 1, unit: 'kVA' },
      /^unit: Invalid option: expected one of "kWh"\|"kvarh"\|"kVA\/month"\|"day"\|"month"\|"kL"$/,
    ],
    [{ item_type_code: 'NETWORK_CAPACITY', price: 1, unit: 'KWH' }, /^unit: Invalid option/],
    [
      { item_type_code: 'NETWORK_DEMAND', price: 1, demand_periods: [] },
      'demand_periods: Too small: expected array to have >=1 items',
    ],
    [
      { item_type_code: 'NETWORK_DEMAND', price: 1, demand_periods: ['PEAK', 'PEAK'] },
      'demand_periods: Each period at most once',
    ],
    [
      { item_type_code: 'NETWORK_DEMAND', price: 1, demand_periods: ['PEAK', 'NIGHT'] },
      /^demand_periods\.1: Invalid option/,
    ],
    [
      { item_type_code: 'NETWORK_DEMAND', price: 1, demand_periods: 'PEAK' },
      'demand_periods: Invalid input: expected array, received string',
    ],
    [
      { item_type_code: 'NETWORK_CAPACITY', price: 1, demand_basis: 'MAXIMUM' },
      /^demand_basis: Invalid option: expected one of "MONTH_MAX"\|"NMD"\|"UTILISED_CAPACITY"\|"EXCESS"$/,
    ],
    [
      { item_type_code: 'REACTIVE_ENERGY', price: 1, free_ratio: 1.5 },
      'free_ratio: Too big: expected number to be <=1',
    ],
    [
      { item_type_code: 'REACTIVE_ENERGY', price: 1, free_ratio: -0.1 },
      'free_ratio: Too small: expected number to be >=0',
    ],
    [{ item_type_code: 'REACTIVE_ENERGY', price: 1, free_ratio: 0.12345 }, 'free_ratio: Must have at most 4 decimals'],
    [
      { item_type_code: 'REACTIVE_ENERGY', price: 1, free_ratio: '0.3' },
      'free_ratio: Invalid input: expected number, received string',
    ],
  ])('rejects the value of %j', async (body, error) => {
    const tariff = await touTariff();
    const res = await r.owner.client.post(itemsOf(tariff.id), body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(typeof error === 'string' ? error : expect.stringMatching(error)));
    expect(await itemCount(tariff.id)).toBe(0);
  });

  it.each([
    [
      { item_type_code: 'IMPORT_ENERGY', price: 1, demand_periods: ['PEAK'] },
      'demand_periods: Only a kVA/month or kvarh item may have them; this item is priced per kWh',
    ],
    [
      { item_type_code: 'NETWORK_DEMAND', price: 1, unit: 'kWh', demand_periods: ['PEAK'] },
      'demand_periods: Only a kVA/month or kvarh item may have them; this item is priced per kWh',
    ],
    [
      { item_type_code: 'SERVICE', price: 1, demand_basis: 'NMD' },
      'demand_basis: Only a kVA/month item may have one; this item is priced per day',
    ],
    [
      { item_type_code: 'NETWORK_CAPACITY', price: 1, unit: 'day', demand_basis: 'MONTH_MAX' },
      'demand_basis: Only a kVA/month item may have one; this item is priced per day',
    ],
    [
      { item_type_code: 'IMPORT_ENERGY', price: 1, free_ratio: 0.3 },
      'free_ratio: Only a kvarh item may have one; this item is priced per kWh',
    ],
    [
      { item_type_code: 'REACTIVE_ENERGY', price: 1, unit: 'kWh', free_ratio: 0.3 },
      'free_ratio: Only a kvarh item may have one; this item is priced per kWh',
    ],
    [
      { item_type_code: 'WATER_CONSUMPTION', price: 1, free_ratio: 0.3, demand_basis: 'NMD' },
      'demand_basis: Only a kVA/month item may have one; this item is priced per kL; free_ratio: Only a kvarh item may have one; this item is priced per kL',
    ],
  ])('rejects %j on a TIME_OF_USE tariff for its unit', async (body, error) => {
    const tariff = await touTariff();
    const res = await r.owner.client.post(itemsOf(tariff.id), body);
    expect([res.status, res.body]).toEqual([400, invalid(error)]);
    expect(await itemCount(tariff.id)).toBe(0);
  });

  it('rejects demand_periods on the items of a tariff that is not TIME_OF_USE', async () => {
    for (const tariff_type of ['FLAT', 'BLOCK', 'DYNAMIC']) {
      const tariff = await createTariff(r.owner.client, r.accountId, { tariff_type });
      const res = await r.owner.client.post(itemsOf(tariff.id), {
        item_type_code: 'NETWORK_DEMAND',
        price: 1,
        demand_periods: ['PEAK', 'STANDARD'],
      });
      expect([tariff_type, res.status, res.body]).toEqual([tariff_type, 400, invalid(`demand_periods: ${NOT_TOU}`)]);
      expect(await itemCount(tariff.id)).toBe(0);
    }
  });

  it('keeps nothing of a batch with one bad field, and names the item by its position', async () => {
    const tariff = await createTariff(r.owner.client, r.accountId);
    const good = { item_type_code: 'NETWORK_CAPACITY', price: 1, demand_basis: 'NMD' };
    const cases: [unknown[], string][] = [
      [
        [good, { item_type_code: 'LEGACY', price: 1, unit: 'kVA' }],
        '1.unit: Invalid option: expected one of "kWh"|"kvarh"|"kVA/month"|"day"|"month"|"kL"',
      ],
      [
        [good, { item_type_code: 'LEGACY', price: 1, free_ratio: 0.5 }],
        '1.free_ratio: Only a kvarh item may have one; this item is priced per kWh',
      ],
      [
        [{ item_type_code: 'NETWORK_DEMAND', price: 1, demand_periods: ['PEAK'] }, good],
        `0.demand_periods: ${NOT_TOU}`,
      ],
    ];
    for (const [body, error] of cases) {
      const res = await r.owner.client.post(itemsOf(tariff.id), body);
      expect([res.status, res.body]).toEqual([400, invalid(error)]);
    }
    expect(await itemCount(tariff.id)).toBe(0);
  });
});

describe('update', () => {
  it('sets, changes and clears each field; a field left out keeps its value', async () => {
    const tariff = await touTariff();
    const [item] = await createItems(r.owner.client, tariff.id, { item_type_code: 'NETWORK_CAPACITY', price: 20 });
    const url = `${itemsOf(tariff.id)}/${item.id}`;
    const set = await r.admin.client.put(url, {
      account_id: r.accountId,
      demand_periods: ['PEAK'],
      demand_basis: 'EXCESS',
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({
      success: true,
      message: null,
      data: { ...item, demand_periods: ['PEAK'], demand_basis: 'EXCESS' },
    });
    const changed = await r.owner.client.put(url, { price: 21, demand_periods: ['STANDARD', 'PEAK'] });
    expect(changed.body.data).toEqual({
      ...item,
      price: 21,
      demand_periods: ['PEAK', 'STANDARD'],
      demand_basis: 'EXCESS',
    });
    const cleared = await r.owner.client.put(url, { demand_periods: null, demand_basis: null, unit: 'day' });
    expect(cleared.body.data).toEqual({ ...item, price: 21, unit: 'day' });
    const toKvarh = await r.owner.client.put(url, { unit: 'kvarh', free_ratio: 0.25 });
    expect(toKvarh.body.data).toEqual({ ...item, price: 21, unit: 'kvarh', free_ratio: 0.25 });
    const back = await r.owner.client.put(url, { unit: null, free_ratio: null });
    expect(back.body.data).toEqual({ ...item, price: 21 });
    expect(await itemsRead(tariff.id)).toEqual([back.body.data]);
  });

  it('checks the item the update leaves, also for a field the body does not name', async () => {
    const tariff = await touTariff();
    const [capacity, reactive] = await createItems(r.owner.client, tariff.id, [
      { item_type_code: 'NETWORK_CAPACITY', price: 20, demand_basis: 'UTILISED_CAPACITY', demand_periods: ['PEAK'] },
      { item_type_code: 'REACTIVE_ENERGY', price: 0.2, free_ratio: 0.3 },
    ]);
    const cases: [number, Record<string, unknown>, string][] = [
      [
        capacity.id,
        { item_type_code: 'SERVICE' },
        'demand_periods: Only a kVA/month or kvarh item may have them; this item is priced per day; demand_basis: Only a kVA/month item may have one; this item is priced per day',
      ],
      [
        capacity.id,
        { unit: 'kWh', demand_periods: null },
        'demand_basis: Only a kVA/month item may have one; this item is priced per kWh',
      ],
      [reactive.id, { unit: 'kWh' }, 'free_ratio: Only a kvarh item may have one; this item is priced per kWh'],
      [
        reactive.id,
        { item_type_code: 'LEGACY' },
        'free_ratio: Only a kvarh item may have one; this item is priced per kWh',
      ],
      [reactive.id, { free_ratio: 2 }, 'free_ratio: Too big: expected number to be <=1'],
      [
        reactive.id,
        { unit: 'kVA' },
        'unit: Invalid option: expected one of "kWh"|"kvarh"|"kVA/month"|"day"|"month"|"kL"',
      ],
      [capacity.id, { demand_periods: [] }, 'demand_periods: Too small: expected array to have >=1 items'],
    ];
    for (const [id, body, error] of cases) {
      const res = await r.owner.client.put(`${itemsOf(tariff.id)}/${id}`, body);
      expect([body, res.status, res.body]).toEqual([body, 400, invalid(error)]);
    }
    expect(await itemsRead(tariff.id)).toEqual([capacity, reactive]);
  });

  it('refuses demand_periods on an item of a tariff that is not TIME_OF_USE', async () => {
    const tariff = await createTariff(r.owner.client, r.accountId);
    const [item] = await createItems(r.owner.client, tariff.id, { item_type_code: 'NETWORK_DEMAND', price: 1 });
    const res = await r.owner.client.put(`${itemsOf(tariff.id)}/${item.id}`, { demand_periods: ['PEAK'] });
    expect([res.status, res.body]).toEqual([400, invalid(`demand_periods: ${NOT_TOU}`)]);
    expect(await itemsRead(tariff.id)).toEqual([item]);
  });
});

describe('a tariff whose items have demand_periods', () => {
  it('cannot leave TIME_OF_USE until they are cleared (400 naming the items); other fields may change', async () => {
    const tariff = await touTariff();
    const [demand, capacity, other] = await createItems(r.owner.client, tariff.id, [
      { item_type_code: 'NETWORK_DEMAND', price: 50, demand_periods: ['PEAK', 'STANDARD'] },
      { item_type_code: 'NETWORK_CAPACITY', price: 25, demand_periods: ['PEAK'], demand_basis: 'NMD' },
      { item_type_code: 'TRANSMISSION_NETWORK', price: 10, demand_basis: 'MONTH_MAX' },
    ]);
    const url = `/api/v1/tariffs/${tariff.id}`;
    const toFlat = { account_id: r.accountId, tariff_type: 'FLAT', tou_schedule_id: null };
    const refused = await r.owner.client.put(url, toFlat);
    expect([refused.status, refused.body]).toEqual([
      400,
      invalid(`tariff_type: ${NOT_TOU}; set demand_periods to null on items ${demand.id}, ${capacity.id} first`),
    ]);
    const otherSchedule = await r.owner.client.put(url, {
      account_id: r.accountId,
      tou_schedule_id: 4,
      name: 'Renamed',
    });
    expect(otherSchedule.status).toBe(200);
    expect(otherSchedule.body.data).toMatchObject({ tariff_type: 'TIME_OF_USE', tou_schedule_id: 4, name: 'Renamed' });
    expect(otherSchedule.body.data.tariff_items).toEqual([demand, capacity, other]);

    for (const item of [demand, capacity]) {
      const cleared = await r.owner.client.put(`${itemsOf(tariff.id)}/${item.id}`, { demand_periods: null });
      expect(cleared.status).toBe(200);
    }
    const accepted = await r.owner.client.put(url, toFlat);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.tariff_type).toBe('FLAT');
    // demand_basis does not depend on the tariff's type.
    expect(accepted.body.data.tariff_items.map((i: { demand_basis: string | null }) => i.demand_basis)).toEqual([
      null,
      'NMD',
      'MONTH_MAX',
    ]);
  });
});

describe('the database', () => {
  it('refuses values outside the fields’ bounds, also when written without the API', async () => {
    const tariff = await touTariff();
    const [item] = await createItems(r.owner.client, tariff.id, { item_type_code: 'NETWORK_CAPACITY', price: 1 });
    const refused = [
      ["unit = 'kVA'", 'tariff_items_unit_check'],
      ["demand_basis = 'MAX'", 'tariff_items_demand_basis_check'],
      ['free_ratio = 1.0001', 'tariff_items_free_ratio_check'],
      ['free_ratio = -0.0001', 'tariff_items_free_ratio_check'],
      ["demand_periods = '{}'", 'tariff_items_demand_periods_check'],
      ["demand_periods = '{PEAK,PEAK}'", 'tariff_items_demand_periods_check'],
      ["demand_periods = '{OFF_PEAK,STANDARD,OFF_PEAK}'", 'tariff_items_demand_periods_check'],
      ["demand_periods = '{PEAK,NIGHT}'", 'tariff_items_demand_periods_check'],
      ["demand_periods = '{PEAK,NULL}'", 'tariff_items_demand_periods_check'],
      ["demand_periods = '{{PEAK},{STANDARD}}'", 'tariff_items_demand_periods_check'],
    ];
    for (const [assignment, constraint] of refused) {
      await expect(
        t.db.query(`UPDATE tariff_items SET ${assignment} WHERE id = $1`, [item.id]),
        assignment,
      ).rejects.toMatchObject({ constraint });
    }
    await t.db.query(
      `UPDATE tariff_items SET demand_periods = '{OFF_PEAK,STANDARD,PEAK}', free_ratio = 1 WHERE id = $1`,
      [item.id],
    );
    const meter = t.db.query(
      `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, notified_max_demand_kva)
       VALUES ($1, 1, 'NMD-NEGATIVE', 'ELECTRICITY', -1)`,
      [r.accountId],
    );
    await expect(meter).rejects.toMatchObject({ constraint: 'meters_notified_max_demand_kva_check' });
  });
});

describe('API reference', () => {
  it('documents each field with its constraints and a description, on create and on update', async () => {
    const doc = (await r.owner.client.get('/api/v1/openapi.json')).body;
    const bodyOf = (path: string, method: string) =>
      doc.paths[path][method].requestBody.content['application/json'].schema;
    const created = bodyOf('/api/v1/tariffs/{id}/items', 'post').anyOf;
    const forms = [
      created[0].properties,
      created[1].items.properties,
      bodyOf('/api/v1/tariffs/{id}/items/{itemId}', 'put').properties,
    ];
    for (const properties of forms) {
      expect(properties.unit).toEqual({
        anyOf: [{ type: 'string', enum: ['kWh', 'kvarh', 'kVA/month', 'day', 'month', 'kL'] }, { type: 'null' }],
        description: expect.stringContaining('Null: the unit of the item type'),
      });
      expect(properties.demand_periods).toEqual({
        anyOf: [
          {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { type: 'string', enum: ['PEAK', 'STANDARD', 'OFF_PEAK'] },
          },
          { type: 'null' },
        ],
        description: expect.stringContaining('Only on kVA/month and kvarh items of a TIME_OF_USE tariff'),
      });
      expect(properties.demand_basis).toEqual({
        anyOf: [{ type: 'string', enum: ['MONTH_MAX', 'NMD', 'UTILISED_CAPACITY', 'EXCESS'] }, { type: 'null' }],
        description: expect.stringContaining('Only on kVA/month items'),
      });
      expect(properties.free_ratio).toEqual({
        anyOf: [{ type: 'number', minimum: 0, maximum: 1 }, { type: 'null' }],
        description: expect.stringContaining('at most 4 decimals'),
      });
    }
  });
});
