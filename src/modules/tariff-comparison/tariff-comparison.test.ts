import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest } from '../../../test/helpers/timeseries-factories.ts';

// Tariff comparison (extensions §12.2), hand-computed. The grid meter (NMD 100 kVA) reads three
// half hours on Monday 2 June 2025 (Johannesburg, winter, high-demand season): 02:00 100 kWh at
// 200 kVA (off-peak), 07:00 50 kWh, 60 kvarh at 110 kVA (peak), 12:00 40 kWh, 20 kvarh at 90 kVA
// (standard): 190 kWh. The period is that local day.

const MEGAFLEX = 8;
const DAY = { start: '2025-06-02T00:00:00+02:00', end: '2025-06-03T00:00:00+02:00' };
const JUNE = '2025-06';

let t: TestApp;
let org: OrganizationWithRoles;
let siteId: number;
let meterSn: string;
/** Org tariffs: FLAT 2.00/kWh (the config's), TIME_OF_USE 5/2/1, BLOCK 1.50 to 100 kWh then 3.00. */
let flat: number;
let tou: number;
let block: number;

const compare = (blockId: number, query: Record<string, string> = {}, client = org.member.client) =>
  client.get(`/api/v1/building_blocks/${blockId}/tariff-comparison`, { account_id: org.accountId, ...DAY, ...query });

async function megaflexCalendar() {
  const [row] = await t.db.query<{ dso_id: number; tou_schedule_id: number }>(
    'SELECT dso_id, tou_schedule_id FROM tariffs WHERE id = $1',
    [MEGAFLEX],
  );
  return row!;
}

async function orgTariff(fields: Record<string, unknown>, items: unknown[]) {
  const { id } = await createTariff(org.owner.client, org.accountId, { tax_rate: 15, ...fields });
  await createItems(org.owner.client, id, items);
  return id as number;
}

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  siteId = (await createBlock(org.owner.client, org.accountId, { name: 'Compared site' })).id;
  const meter = await createMeter(org.owner.client, org.accountId, siteId, { notified_max_demand_kva: 100 });
  meterSn = meter.meter_sn;
  await ingest(org.owner.client, org.accountId, meterSn, [
    { ts: '2025-06-02T02:00:00+02:00', import_kwh: 100, kva: 200 },
    { ts: '2025-06-02T07:00:00+02:00', import_kwh: 50, kvarh: 60, kva: 110 },
    { ts: '2025-06-02T12:00:00+02:00', import_kwh: 40, kvarh: 20, kva: 90 },
  ]);
  flat = await orgTariff({ name: 'Flat 2.00' }, [{ item_type_code: 'IMPORT_ENERGY', price: 2, season: 'ALL_YEAR' }]);
  const calendar = await megaflexCalendar();
  tou = await orgTariff({ name: 'TOU 5/2/1', tariff_type: 'TIME_OF_USE', ...calendar }, [
    { item_type_code: 'TOU_PEAK_ENERGY', price: 5, season: 'ALL_YEAR' },
    { item_type_code: 'TOU_STANDARD_ENERGY', price: 2, season: 'ALL_YEAR' },
    { item_type_code: 'TOU_OFF_PEAK_ENERGY', price: 1, season: 'ALL_YEAR' },
  ]);
  block = await orgTariff({ name: 'Block 1.50/3.00', tariff_type: 'BLOCK' }, [
    { item_type_code: 'IMPORT_ENERGY', price: 0, season: 'ALL_YEAR' },
  ]);
  const [item] = (await org.owner.client.get(`/api/v1/tariffs/${block}/items`, { account_id: org.accountId })).body
    .data;
  const tiers = await org.owner.client.post(`/api/v1/tariffs/${block}/items/${item.id}/blocks`, [
    { block_index: 0, upper_limit: 100, unit_price_cents: 150 },
    { block_index: 1, upper_limit: null, unit_price_cents: 300 },
  ]);
  expect(tiers.status, JSON.stringify(tiers.body)).toBe(201);
  const config = await org.owner.client.put(`/api/v1/building_blocks/${siteId}/config`, {
    account_id: org.accountId,
    grid_meter_id: meter.id,
    grid_tariff_id: flat,
  });
  expect(config.status, JSON.stringify(config.body)).toBe(200);
});
afterAll(async () => t.close());
afterEach(() => t.clock.resume());

const summary = (c: { tariff_id: number; total: number | null; difference: number | null }) => [
  c.tariff_id,
  c.total,
  c.difference,
];

describe('GET /building_blocks/:id/tariff-comparison', () => {
  it('prices the readings with a time-of-use, a block and a Megaflex candidate, cheapest first', async () => {
    const res = await compare(siteId, { tariff_ids: `${tou},${block},${MEGAFLEX},${flat}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      building_block_id: siteId,
      source: 'grid',
      meter_sn: meterSn,
      start: '2025-06-01T22:00:00.000Z',
      end: '2025-06-02T22:00:00.000Z',
      currency: 'ZAR',
    });
    // Current (FLAT): 190 kWh x 2.00 = 380.00; tax 15% 57.00; total 437.00.
    expect(data.current).toMatchObject({ total: 437, months: [{ month: JUNE, total: 437 }], complete: false });
    expect(data.candidates.map(summary)).toEqual([
      // The current tariff itself: 437.00, difference 0.
      [flat, 437, 0],
      // BLOCK: 100 kWh x 1.50 = 150.00 + 90 kWh x 3.00 = 270.00 -> 420.00; tax 63.00; 483.00 (+46.00).
      [block, 483, 46],
      // TOU: peak 50 x 5 = 250 + standard 40 x 2 = 80 + off-peak 100 x 1 = 100 -> 430.00; tax 64.50;
      // 494.50 (+57.50).
      [tou, 494.5, 57.5],
      // Megaflex (catalogue): energy 293.61 + 71.18 + 96.72; kVA/month items for 1/30 of June:
      // transmission 90.80, capacity 176.33, demand 191.77, subsidy 140.93, generation 25.67;
      // per-kWh levies 0.86 + 13.53 + 9.29 + 43.28; reactive 4.03; service 132.96, administration
      // 31.54; excess 176.33 -> subtotal 1,498.83; tax 224.82; total 1,723.65 (+1,286.65).
      [MEGAFLEX, 1723.65, 1286.65],
    ]);
    expect(data.candidates.map((c: { name: string; catalogue: boolean }) => c.catalogue)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(data.candidates[0]).toMatchObject({
      name: 'Flat 2.00',
      currency: 'ZAR',
      months: [{ month: JUNE, total: 437 }],
      complete: false,
    });
  });

  it('gives each candidate the bill the one-meter cost gives for the same tariff', async () => {
    const res = await compare(siteId, { tariff_ids: `${MEGAFLEX},${tou}` });
    expect(res.status).toBe(200);
    for (const candidate of res.body.data.candidates) {
      const cost = await org.member.client.get(`/api/v1/tariffs/${candidate.tariff_id}/cost`, {
        account_id: org.accountId,
        meter_sn: meterSn,
        ...DAY,
      });
      expect(cost.status).toBe(200);
      expect(candidate).toMatchObject({
        total: cost.body.data.total,
        months: cost.body.data.months.map((m: { month: string; total: number }) => ({
          month: m.month,
          total: m.total,
        })),
        complete: cost.body.data.complete,
        warnings: cost.body.data.warnings,
      });
    }
  });

  it('without tariff_ids compares the live tariffs the building may take that are in force on the last day', async () => {
    const deleted = await orgTariff({ name: 'Deleted' }, [{ item_type_code: 'IMPORT_ENERGY', price: 1 }]);
    expect((await org.owner.client.delete(`/api/v1/tariffs/${deleted}`, { account_id: org.accountId })).status).toBe(
      204,
    );
    const res = await compare(siteId);
    expect(res.status).toBe(200);
    // The current tariff has no DSO: every DSO's. A COMMERCIAL supply of NMD 100 kVA on 2 June 2025:
    // of the catalogue only Miniflex 2025/26 (7); the organization's own tariffs have no conditions.
    const ids = res.body.data.candidates.map((c: { tariff_id: number }) => c.tariff_id);
    expect([...ids].sort((a, b) => a - b)).toEqual([7, flat, tou, block].sort((a, b) => a - b));
    expect(ids).not.toContain(deleted);
    const totals = res.body.data.candidates.map((c: { total: number | null }) => c.total);
    const priced = totals.filter((total: number | null) => total !== null);
    expect(priced).toEqual([...priced].sort((a, b) => a - b));
  });

  it('prices the current bill with the tariff history and compares candidates over the whole period', async () => {
    const site = (await createBlock(org.owner.client, org.accountId, { name: 'Reassigned' })).id;
    const meter = await createMeter(org.owner.client, org.accountId, site);
    // 1 kWh every half hour of 1 and 2 June 2025 (UTC): 48 kWh a day.
    const readings = Array.from({ length: 96 }, (_, i) => ({
      ts: new Date(Date.parse('2025-06-01T00:00:00Z') + i * 1_800_000).toISOString(),
      import_kwh: 1,
    }));
    await ingest(org.owner.client, org.accountId, meter.meter_sn, readings);
    const a = await orgTariff({ name: 'A', timezone: 'UTC' }, [{ item_type_code: 'IMPORT_ENERGY', price: 1 }]);
    const b = await orgTariff({ name: 'B', timezone: 'UTC' }, [{ item_type_code: 'IMPORT_ENERGY', price: 3 }]);
    const put = (tariff: number) =>
      org.owner.client.put(`/api/v1/building_blocks/${site}/config`, {
        account_id: org.accountId,
        grid_meter_id: meter.id,
        grid_tariff_id: tariff,
      });
    t.clock.stopAt('2025-05-01T00:00:00.000Z');
    expect((await put(a)).status).toBe(200);
    t.clock.stopAt('2025-06-02T00:00:00.000Z');
    expect((await put(b)).status).toBe(200);
    const res = await compare(site, {
      start: '2025-06-01T00:00:00Z',
      end: '2025-06-03T00:00:00Z',
      tariff_ids: `${a},${b}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // Current: A on 1 June 48 x 1.00 = 48.00 + tax 7.20 = 55.20; B on 2 June 48 x 3.00 = 144.00 +
    // 21.60 = 165.60; 220.80, one month.
    expect(res.body.data.current).toEqual({
      total: 220.8,
      months: [{ month: JUNE, total: 220.8 }],
      complete: true,
      warnings: [],
    });
    // A over both days: 96 x 1.00 = 96.00 + 14.40 = 110.40 (-110.40); B: 288.00 + 43.20 = 331.20 (+110.40).
    expect(res.body.data.candidates.map(summary)).toEqual([
      [a, 110.4, -110.4],
      [b, 331.2, 110.4],
    ]);
  });

  it('lists a candidate that cannot price the readings with total null, after the others', async () => {
    const odd = await orgTariff({ name: 'Demand periods on FLAT' }, [
      { item_type_code: 'NETWORK_DEMAND', price: 10, season: 'ALL_YEAR', unit: 'kVA/month' },
    ]);
    // A row the API refuses today (demand_periods need a TIME_OF_USE tariff), as older data may hold it.
    await t.db.query(`UPDATE tariff_items SET demand_periods = '{PEAK}' WHERE tariff_id = $1`, [odd]);
    const res = await compare(siteId, { tariff_ids: `${odd},${flat}` });
    expect(res.status).toBe(200);
    expect(res.body.data.candidates.map(summary)).toEqual([
      [flat, 437, 0],
      [odd, null, null],
    ]);
    expect(res.body.data.candidates[1]).toMatchObject({
      months: [],
      complete: false,
      warnings: ['Not priced: the NETWORK_DEMAND item has demand_periods, which only a TIME_OF_USE tariff can apply'],
    });
  });

  it('refuses what it cannot compare with the contract’s statuses', async () => {
    const other = await createTariff(org.outsider.client, org.otherAccountId);
    const cases: [Promise<{ status: number; body: { error: string } }>, number, string][] = [
      [compare(siteId, { tariff_ids: String(other.id) }), 403, 'Tariff belongs to another organization'],
      [compare(siteId, { tariff_ids: '999999' }), 404, 'Tariff not found'],
      [
        compare(siteId, { tariff_ids: Array.from({ length: 51 }, (_, i) => i + 1).join(',') }),
        400,
        'tariff_ids: At most 50 tariffs',
      ],
      [
        compare(siteId, { tariff_ids: '1,x' }),
        400,
        'tariff_ids: Each tariff id: Must be a whole number in plain decimal digits, comma-separated',
      ],
      [compare(siteId, { source: 'solar' }), 400, 'source: The solar source has no meter'],
      [compare(siteId, { end: '2026-06-04T00:00:00+02:00' }), 400, 'end: The period may span at most 366 days'],
      [compare(siteId, {}, org.outsider.client), 403, 'You are not a member of this organization'],
    ];
    for (const [reply, status, error] of cases) {
      const res = await reply;
      expect([res.status, res.body.error]).toEqual([status, error]);
    }
    const bare = (await createBlock(org.owner.client, org.accountId)).id;
    const noConfig = await compare(bare);
    expect([noConfig.status, noConfig.body.error]).toEqual([404, 'Dashboard config not found']);
  });
});
