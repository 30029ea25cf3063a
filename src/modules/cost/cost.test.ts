import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertReadings,
  insertTariff,
  insertTransition,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

async function tariffWithItems(
  accountId: string,
  fields: { tariff_type?: string; tax_rate?: number; dso_id?: number; tou_schedule_id?: number | null },
  items: { code: string; price: number; season?: string }[],
): Promise<number> {
  const id = await insertTariff(t.db, accountId);
  await t.db.query(
    'UPDATE tariffs SET tariff_type = $2, tax_rate = $3, dso_id = $4, tou_schedule_id = $5 WHERE id = $1',
    [id, fields.tariff_type ?? 'FLAT', fields.tax_rate ?? 0, fields.dso_id ?? 1, fields.tou_schedule_id ?? null],
  );
  for (const item of items) {
    await t.db.query('INSERT INTO tariff_items (tariff_id, item_type_code, price, season) VALUES ($1, $2, $3, $4)', [
      id,
      item.code,
      item.price,
      item.season ?? 'ALL_YEAR',
    ]);
  }
  return id;
}

describe('one meter with one tariff', () => {
  it('prices energy and a daily charge, with tax rounded to the cent', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    await insertMeter(t.db, r.accountId, block, { meterSn: 'COST-FLAT-1' });
    const meterId = (await t.db.query<{ id: number }>(`SELECT id FROM meters WHERE meter_sn = 'COST-FLAT-1'`))[0]!.id;
    // 2025-03-03 is a Monday; 48 half-hours of 1.25 kWh = 60 kWh, 0.5 kvarh each.
    await insertReadings(t.db, meterId, '2025-03-02T22:00:00Z', 48, () => ({ import_kwh: 1.25, kvarh: 0.5, kva: 3 }));
    const tariff = await tariffWithItems(r.accountId, { tax_rate: 15 }, [
      { code: 'IMPORT_ENERGY', price: 2.6878 },
      { code: 'SERVICE', price: 3.27 },
    ]);
    const res = await r.member.client.get(`/api/v1/tariffs/${tariff}/cost`, {
      account_id: r.accountId,
      meter_sn: 'COST-FLAT-1',
      start: '2025-03-02T22:00:00Z',
      end: '2025-03-03T22:00:00Z',
    });
    expect(res.status).toBe(200);
    // energy: 60 kWh x 2.6878 = 161.268 -> 161.27; service: 1 day x 3.27 = 3.27
    // subtotal 164.54; tax 164.54 x 15% = 24.681 -> 24.68; total 189.22
    const lines = [
      {
        item_type_code: 'IMPORT_ENERGY',
        season: 'ALL_YEAR',
        period: null,
        block_index: null,
        quantity: 60,
        unit: 'kWh',
        unit_price: 2.6878,
        amount: 161.27,
      },
      {
        item_type_code: 'SERVICE',
        season: 'ALL_YEAR',
        period: null,
        block_index: null,
        quantity: 1,
        unit: 'day',
        unit_price: 3.27,
        amount: 3.27,
      },
    ];
    const period = { start: '2025-03-02T22:00:00.000Z', end: '2025-03-03T22:00:00.000Z' };
    const usage = { import_kwh: 60, export_kwh: 0, kvarh: 24, max_kva: 3 };
    const money = { subtotal: 164.54, tax: 24.68, total: 189.22 };
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        tariff_id: tariff,
        meter_sn: 'COST-FLAT-1',
        ...period,
        currency: 'ZAR',
        approximate: false,
        ...usage,
        lines,
        ...money,
        tax_rate: 15,
        missing_intervals: 0,
        complete: true,
        warnings: [],
        months: [
          {
            month: '2025-03',
            ...period,
            ...usage,
            chargeable_kva: null,
            demand: { max_kva: 3, chargeable_kva: null, utilised_kva: null, nmd_kva: null, excess_kva: null },
            lines,
            ...money,
            missing_intervals: 0,
            complete: true,
            warnings: [],
          },
        ],
      },
    });
  });

  it('prices with a catalogue time-of-use tariff and counts missing intervals', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meterId = await insertMeter(t.db, r.accountId, block, { meterSn: 'COST-TOU-1' });
    // Monday 2025-03-03 (low-demand season) local 07:00-09:00 is peak: 4 slots of 2 kWh = 8 kWh.
    await insertReadings(t.db, meterId, '2025-03-03T05:00:00Z', 4, () => ({ import_kwh: 2 }));
    const res = await r.owner.client.get('/api/v1/tariffs/6/cost', {
      account_id: r.accountId,
      meter_sn: 'COST-TOU-1',
      start: '2025-03-03T05:00:00Z',
      end: '2025-03-03T07:00:00Z',
    });
    expect(res.status).toBe(200);
    const peak = res.body.data.lines.find((l: { item_type_code: string }) => l.item_type_code === 'TOU_PEAK_ENERGY');
    // 8 kWh at the catalogue's low-season peak price: 8 x 3.2928 = 26.3424 -> 26.34.
    expect(peak).toEqual({
      item_type_code: 'TOU_PEAK_ENERGY',
      season: 'SUMMER',
      period: 'PEAK',
      block_index: null,
      quantity: 8,
      unit: 'kWh',
      unit_price: 3.2928,
      amount: 26.34,
    });
    expect(res.body.data.missing_intervals).toBe(0);
    const withGap = await r.owner.client.get('/api/v1/tariffs/6/cost', {
      account_id: r.accountId,
      meter_sn: 'COST-TOU-1',
      start: '2025-03-03T05:00:00Z',
      end: '2025-03-03T08:00:00Z',
    });
    expect(withGap.body.data.missing_intervals).toBe(2);
  });

  it('prices block tiers with decimal cents (232.31 and 394.8655 c/kWh) across the block boundary', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meterId = await insertMeter(t.db, r.accountId, block, { meterSn: 'COST-BLOCK-DEC' });
    // 48 half-hours of 13.125 kWh = 630 kWh in March.
    await insertReadings(t.db, meterId, '2025-03-02T22:00:00Z', 48, () => ({ import_kwh: 13.125 }));
    const tariff = await tariffWithItems(r.accountId, { tariff_type: 'BLOCK', tax_rate: 15 }, [
      { code: 'IMPORT_ENERGY', price: 0 },
    ]);
    const [item] = await t.db.query<{ id: number }>('SELECT id FROM tariff_items WHERE tariff_id = $1', [tariff]);
    const tiers = await r.owner.client.post(`/api/v1/tariffs/${tariff}/items/${item!.id}/blocks`, [
      { block_index: 0, upper_limit: 600, unit_price_cents: 232.31 },
      { block_index: 1, upper_limit: null, unit_price_cents: 394.8655 },
    ]);
    expect(tiers.status).toBe(201);
    const res = await r.member.client.get(`/api/v1/tariffs/${tariff}/cost`, {
      account_id: r.accountId,
      meter_sn: 'COST-BLOCK-DEC',
      start: '2025-03-02T22:00:00Z',
      end: '2025-03-03T22:00:00Z',
    });
    expect(res.status).toBe(200);
    // block 0: 600 kWh x 2.3231 = 1393.86; block 1: 30 kWh x 3.948655 = 118.45965 -> 118.46;
    // subtotal 1512.32; tax 15% = 226.848 -> 226.85; total 1739.17.
    const energy = { item_type_code: 'IMPORT_ENERGY', season: 'ALL_YEAR', period: null, unit: 'kWh' };
    expect(res.body.data).toMatchObject({
      import_kwh: 630,
      lines: [
        { ...energy, block_index: 0, quantity: 600, unit_price: 2.3231, amount: 1393.86 },
        { ...energy, block_index: 1, quantity: 30, unit_price: 3.948655, amount: 118.46 },
      ],
      subtotal: 1512.32,
      tax: 226.85,
      total: 1739.17,
    });
  });

  it('prices per-day and per-kVA items of each day with the item of its season (31 May SUMMER, 1 June WINTER)', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meterId = await insertMeter(t.db, r.accountId, block, { meterSn: 'COST-SEASONS-1' });
    // 31 May (local) at 62 kVA, 1 June at 80 kVA; 1 kWh per half hour.
    await insertReadings(t.db, meterId, '2025-05-30T22:00:00Z', 96, (i) => ({ import_kwh: 1, kva: i < 48 ? 62 : 80 }));
    const tariff = await tariffWithItems(r.accountId, {}, [
      { code: 'SERVICE', price: 10, season: 'SUMMER' },
      { code: 'SERVICE', price: 20, season: 'WINTER' },
      { code: 'NETWORK_CAPACITY', price: 100, season: 'SUMMER' },
      { code: 'NETWORK_CAPACITY', price: 200, season: 'WINTER' },
    ]);
    const res = await r.member.client.get(`/api/v1/tariffs/${tariff}/cost`, {
      account_id: r.accountId,
      meter_sn: 'COST-SEASONS-1',
      start: '2025-05-30T22:00:00Z',
      end: '2025-06-01T22:00:00Z',
    });
    expect(res.status).toBe(200);
    // SERVICE: 1 May day x 10 = 10.00 (SUMMER); 1 June day x 20 = 20.00 (WINTER).
    // NETWORK_CAPACITY: May 62 kVA x 1/31 = 2 kVA-months x 100 = 200.00 (SUMMER);
    // June 80 kVA x 1/30 = 2.666667 x 200 = 533.333... -> 533.33 (WINTER). subtotal 763.33.
    const fixed = { period: null, block_index: null };
    expect(res.body.data).toMatchObject({
      max_kva: 80,
      lines: [
        { ...fixed, item_type_code: 'SERVICE', season: 'SUMMER', quantity: 1, unit: 'day', unit_price: 10, amount: 10 },
        { ...fixed, item_type_code: 'SERVICE', season: 'WINTER', quantity: 1, unit: 'day', unit_price: 20, amount: 20 },
        {
          ...fixed,
          item_type_code: 'NETWORK_CAPACITY',
          season: 'SUMMER',
          quantity: 2,
          unit: 'kVA',
          unit_price: 100,
          amount: 200,
        },
        {
          ...fixed,
          item_type_code: 'NETWORK_CAPACITY',
          season: 'WINTER',
          quantity: 2.666667,
          unit: 'kVA',
          unit_price: 200,
          amount: 533.33,
        },
      ],
      subtotal: 763.33,
      tax: 0,
      total: 763.33,
    });
  });

  it('answers 400 for a bad period, 403 and 404 for foreign or unknown meters and tariffs', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    await insertMeter(t.db, r.accountId, block, { meterSn: 'COST-ERR-1' });
    const otherBlock = await insertBuildingBlock(t.db, r.otherAccountId);
    await insertMeter(t.db, r.otherAccountId, otherBlock, { meterSn: 'COST-FOREIGN-1' });
    const tariff = await insertTariff(t.db, r.accountId);
    const foreignTariff = await insertTariff(t.db, r.otherAccountId);
    const query = {
      account_id: r.accountId,
      meter_sn: 'COST-ERR-1',
      start: '2025-03-01T00:00:00Z',
      end: '2025-03-02T00:00:00Z',
    };
    const cases: [number, Record<string, string>, number, string][] = [
      [tariff, { ...query, end: query.start }, 400, 'end: end must be after start'],
      [tariff, { ...query, end: '2026-04-01T00:00:00Z' }, 400, 'end: The period may span at most 366 days'],
      [tariff, { ...query, start: 'yesterday' }, 400, 'start: Invalid ISO datetime'],
      [tariff, { ...query, meter_sn: 'NOPE' }, 404, 'Meter not found'],
      [tariff, { ...query, meter_sn: 'COST-FOREIGN-1' }, 403, 'Meter belongs to another organization'],
      [999_999, query, 404, 'Tariff not found'],
      [foreignTariff, query, 403, 'Tariff belongs to another organization'],
    ];
    for (const [id, q, status, error] of cases) {
      const res = await r.member.client.get(`/api/v1/tariffs/${id}/cost`, q);
      expect(res.status, error).toBe(status);
      expect(res.body.error).toBe(error);
    }
    expect((await r.outsider.client.get(`/api/v1/tariffs/${tariff}/cost`, query)).status).toBe(403);
    expect((await call(t.app, 'GET', `/api/v1/tariffs/${tariff}/cost`, { query })).status).toBe(401);
  });
});

describe('meter types', () => {
  const query = (meterSn: string) => ({
    account_id: r.accountId,
    meter_sn: meterSn,
    start: '2025-03-03T00:00:00Z',
    end: '2025-03-04T00:00:00Z',
  });

  /** The cost of a day of 48 readings of 1 kWh on a meter of this type, at 2 per kWh. */
  async function costOfMeterOfType(meterType: string) {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meterSn = `COST-${meterType}`;
    const meterId = await insertMeter(t.db, r.accountId, block, { meterSn, meterType });
    await insertReadings(t.db, meterId, '2025-03-03T00:00:00Z', 48, () => ({ import_kwh: 1 }));
    const tariff = await tariffWithItems(r.accountId, {}, [{ code: 'IMPORT_ENERGY', price: 2 }]);
    return { meterSn, res: await r.member.client.get(`/api/v1/tariffs/${tariff}/cost`, query(meterSn)) };
  }

  it.each(['WATER', 'GAS', 'CARBON'])(
    'answers 400 for a %s meter: it is not priced with electricity rules',
    async (meterType) => {
      const { meterSn, res } = await costOfMeterOfType(meterType);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        failure('Invalid request body', `meter_sn: Meter ${meterSn} is not an electricity meter`),
      );
    },
  );

  it.each(['SOLAR', 'GENSET', 'EV', 'HVAC'])('prices a %s meter', async (meterType) => {
    const { res } = await costOfMeterOfType(meterType);
    expect(res.status).toBe(200);
    expect(res.body.data.total).toBe(96);
  });

  it('leaves a building source with a water meter unpriced, with the reason', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const water = await insertMeter(t.db, r.accountId, block, { meterSn: 'BLD-WATER-GRID', meterType: 'WATER' });
    const tariff = await tariffWithItems(r.accountId, {}, [{ code: 'IMPORT_ENERGY', price: 2 }]);
    await insertDashboardConfig(t.db, r.accountId, block, { grid: tariff }, { grid: water });
    const res = await r.member.client.get(`/api/v1/building_blocks/${block}/energy-cost`, {
      account_id: r.accountId,
      start: '2025-03-03T00:00:00Z',
      end: '2025-03-04T00:00:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.sources[0]).toEqual({
      source: 'grid',
      meter_id: water,
      tariff_id: tariff,
      meter_sn: 'BLD-WATER-GRID',
      priced: false,
      reason: 'Meter BLD-WATER-GRID is not an electricity meter',
      bills: [],
      total: null,
    });
    expect(res.body.data.totals).toEqual({});
  });
});

describe('a building block', () => {
  it('prices each configured source, lists the unpriced ones, and splits a source at a transition', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const grid = await insertMeter(t.db, r.accountId, block, { meterSn: 'BLD-GRID' });
    const solar = await insertMeter(t.db, r.accountId, block, { meterSn: 'BLD-SOLAR' });
    const load = await insertMeter(t.db, r.accountId, block, { meterSn: 'BLD-LOAD' });
    const start = '2025-03-01T00:00:00Z';
    // 96 half-hours (2 days): grid imports 1 kWh each; solar exports 0.5 kWh each.
    await insertReadings(t.db, grid, start, 96, () => ({ import_kwh: 1 }));
    await insertReadings(t.db, solar, start, 96, () => ({ import_kwh: 0, export_kwh: 0.5 }));
    const oldGrid = await tariffWithItems(r.accountId, {}, [{ code: 'IMPORT_ENERGY', price: 2 }]);
    const newGrid = await tariffWithItems(r.accountId, {}, [{ code: 'IMPORT_ENERGY', price: 3 }]);
    const feedIn = await tariffWithItems(r.accountId, {}, [{ code: 'EXPORTED_ENERGY', price: 0.8 }]);
    await insertDashboardConfig(t.db, r.accountId, block, { grid: oldGrid, solar: feedIn }, { grid, solar, load });
    // The grid tariff changes after the first day (12 h into 2025-03-02 UTC would also do; one day is simplest).
    await insertTransition(t.db, r.accountId, oldGrid, newGrid, '2025-03-02T00:00:00Z');
    const res = await r.member.client.get(`/api/v1/building_blocks/${block}/energy-cost`, {
      account_id: r.accountId,
      start,
      end: '2025-03-03T00:00:00Z',
    });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.building_block_id).toBe(block);
    expect(data.sources.map((s: { source: string; priced: boolean }) => [s.source, s.priced])).toEqual([
      ['grid', true],
      ['solar', true],
      ['genset', false],
      ['inverter', false],
      ['load', false],
    ]);
    const [gridSource, solarSource, genset, , loadSource] = data.sources;
    // Day 1: 48 kWh x 2 = 96.00 with the predecessor; day 2: 48 kWh x 3 = 144.00 with the successor.
    expect(
      gridSource.bills.map((b: { tariff_id: number; start: string; end: string; total: number }) => [
        b.tariff_id,
        b.start,
        b.end,
        b.total,
      ]),
    ).toEqual([
      [oldGrid, '2025-03-01T00:00:00.000Z', '2025-03-02T00:00:00.000Z', 96],
      [newGrid, '2025-03-02T00:00:00.000Z', '2025-03-03T00:00:00.000Z', 144],
    ]);
    expect(gridSource.total).toBe(240);
    // Export credit: 96 x 0.5 kWh = 48 kWh x 0.80 = -38.40.
    expect(solarSource.bills[0].lines).toEqual([
      {
        item_type_code: 'EXPORTED_ENERGY',
        season: 'ALL_YEAR',
        period: null,
        block_index: null,
        quantity: 48,
        unit: 'kWh',
        unit_price: -0.8,
        amount: -38.4,
      },
    ]);
    expect(solarSource.total).toBe(-38.4);
    expect(genset).toEqual({
      source: 'genset',
      meter_id: null,
      tariff_id: null,
      meter_sn: null,
      priced: false,
      reason: 'No meter and no tariff configured',
      bills: [],
      total: null,
    });
    expect(loadSource).toMatchObject({
      meter_id: load,
      tariff_id: null,
      priced: false,
      reason: 'No tariff configured',
    });
    expect(data.totals).toEqual({ ZAR: 201.6 });
  });

  it('answers 404 without a config or block, 403 for another organization', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const query = { account_id: r.accountId, start: '2025-03-01T00:00:00Z', end: '2025-03-02T00:00:00Z' };
    const none = await r.owner.client.get(`/api/v1/building_blocks/${block}/energy-cost`, query);
    expect(none.status).toBe(404);
    expect(none.body.error).toBe('Dashboard config not found');
    expect((await r.owner.client.get('/api/v1/building_blocks/999999/energy-cost', query)).status).toBe(404);
    const foreign = await insertBuildingBlock(t.db, r.otherAccountId);
    expect((await r.owner.client.get(`/api/v1/building_blocks/${foreign}/energy-cost`, query)).status).toBe(403);
    expect((await r.outsider.client.get(`/api/v1/building_blocks/${block}/energy-cost`, query)).status).toBe(403);
  });
});
