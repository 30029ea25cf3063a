import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest } from '../../../test/helpers/timeseries-factories.ts';

/**
 * The building cost prices each instant with the tariff the source's history records for it. The
 * grid meter imports 1 kWh every half hour (48 kWh a day) from 2025-11-01 to 2026-01-01 (UTC);
 * every tariff is in UTC with 15% tax, an energy price per kWh and a service charge per day.
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let meterId: number;
let meterSn: string;
/** Tariffs that no transition names, shared by the tests: A 1.8765/kWh + 9.99/day, B 2.4321/kWh + 14.50/day. */
let A: number;
let B: number;

const READINGS_START = '2025-11-01T00:00:00.000Z';
const NOVEMBER = ['2025-11-01T00:00:00.000Z', '2025-12-01T00:00:00.000Z'] as const;
const DECEMBER = ['2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'] as const;

async function tariff(energyPerKwh: number, servicePerDay: number): Promise<number> {
  const { id } = await createTariff(org.owner.client, org.accountId, {
    timezone: 'UTC',
    tax_rate: 15,
    effective_to: '2030-12-31',
  });
  await createItems(org.owner.client, id, [
    { item_type_code: 'IMPORT_ENERGY', price: energyPerKwh, season: 'ALL_YEAR' },
    { item_type_code: 'SERVICE', price: servicePerDay, season: 'ALL_YEAR' },
  ]);
  return id;
}

const putConfig = (blockId: number, body: Record<string, unknown>) =>
  org.owner.client.put(`/api/v1/building_blocks/${blockId}/config`, { account_id: org.accountId, ...body });

/** A block whose config prices the grid meter with gridTariff. */
async function blockPricedWith(gridTariff: number): Promise<number> {
  const { id } = await createBlock(org.owner.client, org.accountId);
  expect((await putConfig(id, { grid_meter_id: meterId, grid_tariff_id: gridTariff })).status).toBe(200);
  return id;
}

const buildingCost = (blockId: number, [start, end]: readonly [string, string]) =>
  org.member.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, { account_id: org.accountId, start, end });

const gridSource = (res: Reply) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.sources[0];
};

/** The grid source's bills as [tariff, start, end, subtotal, tax, total]. */
const gridBills = (res: Reply) =>
  gridSource(res).bills.map(
    (b: { tariff_id: number; start: string; end: string; subtotal: number; tax: number; total: number }) => [
      b.tariff_id,
      b.start,
      b.end,
      b.subtotal,
      b.tax,
      b.total,
    ],
  );

const createTransition = async (predecessorId: number, successorId: number, effectiveFrom: string) => {
  const res = await org.owner.client.post(`/api/v1/tariffs/${predecessorId}/transitions`, {
    account_id: org.accountId,
    successor_id: successorId,
    effective_from: effectiveFrom,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
};

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const site = await createBlock(org.owner.client, org.accountId, { name: 'Billed site' });
  const meter = await createMeter(org.owner.client, org.accountId, site.id);
  meterId = meter.id;
  meterSn = meter.meter_sn;
  const halfHours = (Date.parse(DECEMBER[1]) - Date.parse(READINGS_START)) / 1_800_000;
  const readings = Array.from({ length: halfHours }, (_, i) => ({ ts: at(READINGS_START, i * 30), import_kwh: 1 }));
  await ingest(org.owner.client, org.accountId, meter.meter_sn, readings);
  A = await tariff(1.8765, 9.99);
  B = await tariff(2.4321, 14.5);
});
afterAll(async () => t.close());
afterEach(() => t.clock.resume());

describe('a building cost over a reassignment of a source’s tariff', () => {
  it('prices a past month with the tariff it had, also after the source is reassigned', async () => {
    const block = await blockPricedWith(A);
    const before = await buildingCost(block, NOVEMBER);
    // 30 days x 48 kWh = 1440 kWh x 1.8765 = 2702.16; service 30 days x 9.99 = 299.70
    // subtotal 3001.86; tax 15% = 450.279 -> 450.28; total 3452.14
    expect(gridBills(before)).toEqual([[A, ...NOVEMBER, 3001.86, 450.28, 3452.14]]);
    t.clock.stopAt('2026-01-15T00:00:00.000Z');
    await putConfig(block, { grid_tariff_id: B });
    const after = await buildingCost(block, NOVEMBER);
    expect(gridSource(after).bills).toEqual(gridSource(before).bills);
    expect(after.body.data.totals).toEqual({ ZAR: 3452.14 });
    expect(gridSource(after).tariff_id).toBe(B);
  });

  it('splits a period at the instant of the reassignment: two bills, each with its tariff', async () => {
    const block = await blockPricedWith(A);
    t.clock.stopAt('2025-12-15T00:10:00.000Z');
    await putConfig(block, { grid_tariff_id: B });
    const res = await buildingCost(block, ['2025-12-14T00:00:00.000Z', '2025-12-16T00:00:00.000Z']);
    // A until 00:10 on the 15th: the readings of the 14th and the one at 00:00 on the 15th, 49 kWh
    // x 1.8765 = 91.9485 -> 91.95; service 1 day 10 min = 1.0069444 days x 9.99 = 10.059375 -> 10.06;
    // subtotal 102.01; tax 15.3015 -> 15.30; total 117.31.
    // B from 00:10: the readings from 00:30 on the 15th, 47 kWh x 2.4321 = 114.3087 -> 114.31;
    // service 23 h 50 min = 0.9930556 days x 14.50 = 14.3993 -> 14.40; subtotal 128.71;
    // tax 19.3065 -> 19.31; total 148.02. Source total 117.31 + 148.02 = 265.33.
    expect(gridBills(res)).toEqual([
      [A, '2025-12-14T00:00:00.000Z', '2025-12-15T00:10:00.000Z', 102.01, 15.3, 117.31],
      [B, '2025-12-15T00:10:00.000Z', '2025-12-16T00:00:00.000Z', 128.71, 19.31, 148.02],
    ]);
    expect(gridSource(res).total).toBe(265.33);
  });

  it('leaves the part without a tariff unpriced, and a source without one over the whole period unpriced with the reason', async () => {
    const block = await blockPricedWith(A);
    t.clock.stopAt('2025-12-10T00:00:00.000Z');
    await putConfig(block, { grid_tariff_id: null });
    t.clock.stopAt('2025-12-12T00:00:00.000Z');
    await putConfig(block, { grid_tariff_id: B });
    const around = await buildingCost(block, ['2025-12-09T00:00:00.000Z', '2025-12-13T00:00:00.000Z']);
    // One day each: A 48 x 1.8765 = 90.072 -> 90.07 + 9.99 = 100.06, tax 15.009 -> 15.01, total 115.07;
    // B 48 x 2.4321 = 116.7408 -> 116.74 + 14.50 = 131.24, tax 19.686 -> 19.69, total 150.93.
    expect(gridBills(around)).toEqual([
      [A, '2025-12-09T00:00:00.000Z', '2025-12-10T00:00:00.000Z', 100.06, 15.01, 115.07],
      [B, '2025-12-12T00:00:00.000Z', '2025-12-13T00:00:00.000Z', 131.24, 19.69, 150.93],
    ]);
    const between = await buildingCost(block, ['2025-12-10T00:00:00.000Z', '2025-12-12T00:00:00.000Z']);
    expect(gridSource(between)).toEqual({
      source: 'grid',
      meter_id: meterId,
      tariff_id: B,
      meter_sn: meterSn,
      priced: false,
      reason: 'No tariff configured',
      bills: [],
      total: null,
    });
    expect(between.body.data.totals).toEqual({});
  });

  it('still prices a past part with its tariff deleted since: the bill does not change', async () => {
    const retired = await tariff(5, 50);
    const block = await blockPricedWith(retired);
    t.clock.stopAt('2025-12-10T00:00:00.000Z');
    await putConfig(block, { grid_tariff_id: B });
    const period: [string, string] = ['2025-12-09T00:00:00.000Z', '2025-12-11T00:00:00.000Z'];
    const before = await buildingCost(block, period);
    const deleted = await org.owner.client.delete(`/api/v1/tariffs/${retired}`, { account_id: org.accountId });
    expect(deleted.status).toBe(204);
    const after = await buildingCost(block, period);
    expect(gridBills(after).map((b: unknown[]) => b.slice(0, 3))).toEqual([
      [retired, '2025-12-09T00:00:00.000Z', '2025-12-10T00:00:00.000Z'],
      [B, '2025-12-10T00:00:00.000Z', '2025-12-11T00:00:00.000Z'],
    ]);
    expect(after.body.data).toEqual(before.body.data);
  });
});

describe('a building cost over transitions', () => {
  it('keeps a past month when a transition is applied later, and prices a period across it the same before and after', async () => {
    const [old, successor] = [await tariff(2, 10), await tariff(3, 20)];
    const block = await blockPricedWith(old);
    t.clock.stopAt('2025-12-10T00:00:00.000Z');
    const transition = await createTransition(old, successor, '2025-12-20T00:00:00.000Z');
    expect(transition.application.applied).toBe(false);
    const [november, december] = [await buildingCost(block, NOVEMBER), await buildingCost(block, DECEMBER)];
    // November, 1440 kWh x 2 = 2880 + 30 days x 10 = 300: subtotal 3180, tax 477, total 3657.
    expect(gridBills(november)).toEqual([[old, ...NOVEMBER, 3180, 477, 3657]]);
    // 1-20 December, 19 days: 912 kWh x 2 = 1824 + 190 = 2014, tax 302.10, total 2316.10;
    // 20-31 December, 12 days: 576 kWh x 3 = 1728 + 240 = 1968, tax 295.20, total 2263.20.
    expect(gridBills(december)).toEqual([
      [old, DECEMBER[0], '2025-12-20T00:00:00.000Z', 2014, 302.1, 2316.1],
      [successor, '2025-12-20T00:00:00.000Z', DECEMBER[1], 1968, 295.2, 2263.2],
    ]);

    t.clock.stopAt('2025-12-21T00:00:00.000Z');
    expect(await t.app.transitionScheduler.runOnce()).toBe(1);
    expect(gridSource(await buildingCost(block, NOVEMBER))).toEqual({ ...gridSource(november), tariff_id: successor });
    expect(gridSource(await buildingCost(block, DECEMBER))).toEqual({ ...gridSource(december), tariff_id: successor });
  });

  it('prices each part of a chain A→B→C with its own tariff: November is not given December’s charges', async () => {
    const [a, b, c] = [await tariff(2, 10), await tariff(3, 20), await tariff(4, 30)];
    const block = await blockPricedWith(a);
    const november = await buildingCost(block, NOVEMBER);
    // Both transitions are in the past: each is applied when it is created.
    expect((await createTransition(a, b, '2025-12-01T00:00:00.000Z')).application.applied).toBe(true);
    expect((await createTransition(b, c, '2025-12-16T00:00:00.000Z')).application.applied).toBe(true);
    expect(gridSource(await buildingCost(block, NOVEMBER)).bills).toEqual(gridSource(november).bills);
    const both = await buildingCost(block, [NOVEMBER[0], DECEMBER[1]]);
    // A, November: 1440 kWh x 2 = 2880 + 30 x 10 = 300: 3180, tax 477, total 3657.
    // B, 1-16 December, 15 days: 720 kWh x 3 = 2160 + 15 x 20 = 300: 2460, tax 369, total 2829.
    // C, 16-31 December, 16 days: 768 kWh x 4 = 3072 + 16 x 30 = 480: 3552, tax 532.80, total 4084.80.
    expect(gridBills(both)).toEqual([
      [a, ...NOVEMBER, 3180, 477, 3657],
      [b, DECEMBER[0], '2025-12-16T00:00:00.000Z', 2460, 369, 2829],
      [c, '2025-12-16T00:00:00.000Z', DECEMBER[1], 3552, 532.8, 4084.8],
    ]);
    expect(both.body.data.totals).toEqual({ ZAR: 10570.8 });
  });
});

describe('a building cost after a change to its tariff', () => {
  it('prices with the changed items and tax rate at once (nothing stale from the read cache), and as it was last once deleted', async () => {
    const a = await tariff(2, 10);
    const block = await blockPricedWith(a);
    // November, A: 1440 kWh x 2 = 2880 + 30 x 10 = 300: 3180, tax 477, total 3657.
    expect(gridBills(await buildingCost(block, NOVEMBER))).toEqual([[a, ...NOVEMBER, 3180, 477, 3657]]);

    const items = await org.owner.client.get(`/api/v1/tariffs/${a}/items`, { account_id: org.accountId });
    const energy = items.body.data.find((i: { item_type_code: string }) => i.item_type_code === 'IMPORT_ENERGY');
    const repriced = await org.owner.client.put(`/api/v1/tariffs/${a}/items/${energy.id}`, {
      account_id: org.accountId,
      price: 3,
    });
    expect(repriced.status, JSON.stringify(repriced.body)).toBe(200);
    // 1440 x 3 = 4320 + 300 = 4620, tax 693, total 5313.
    expect(gridBills(await buildingCost(block, NOVEMBER))).toEqual([[a, ...NOVEMBER, 4620, 693, 5313]]);

    const untaxed = await org.owner.client.put(`/api/v1/tariffs/${a}`, { account_id: org.accountId, tax_rate: 0 });
    expect(untaxed.status, JSON.stringify(untaxed.body)).toBe(200);
    expect(gridBills(await buildingCost(block, NOVEMBER))).toEqual([[a, ...NOVEMBER, 4620, 0, 4620]]);

    // Deleted since, the tariff still prices its past part, as it was last.
    expect((await putConfig(block, { grid_tariff_id: null })).status).toBe(200);
    expect((await org.owner.client.delete(`/api/v1/tariffs/${a}`, { account_id: org.accountId })).status).toBe(204);
    expect(gridBills(await buildingCost(block, NOVEMBER))).toEqual([[a, ...NOVEMBER, 4620, 0, 4620]]);
  });
});
