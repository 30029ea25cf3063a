import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, clientFor } from '../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { DEMO_EMAIL, DEMO_ORGANIZATION, DEMO_PASSWORD, type DemoSeed, seedDemo } from './demo.ts';
import { nextTariffYear } from './demo-transition.ts';

let t: TestApp;
let seed: DemoSeed | undefined;
/** In the 2026/27 tariff year: the 2025/26 tariff's transition is due, the 2027/28 one pending. */
const NOW = new Date('2026-11-22T10:17:00Z');
beforeAll(async () => {
  t = await startTestApp();
  seed = await seedDemo(t, NOW);
});
afterAll(async () => t.close());

async function demoClient() {
  const login = await call(t.app, 'POST', '/api/v1/auth/login', {
    body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });
  expect(login.status).toBe(200);
  return clientFor(t.app, login.body.data.access_token);
}

describe('demo seed', () => {
  it('makes the demo user OWNER of the demo organization', async () => {
    const client = await demoClient();
    const orgs = await client.get('/api/v1/auth/organizations');
    expect(orgs.body.data).toContainEqual({
      id: seed!.accountId,
      name: DEMO_ORGANIZATION,
      is_personal_account: false,
      role: 'OWNER',
    });
  });

  it('builds a site with two buildings of two units each', async () => {
    const client = await demoClient();
    const accountId = seed!.accountId;
    const blocks = await client.get('/api/v1/building_blocks', { account_id: accountId, limit: 100 });
    expect(blocks.body.count).toBe(7);
    const site = await client.get(`/api/v1/building_blocks/${seed!.blockId}`, { account_id: accountId });
    expect(site.body.data).toMatchObject({ name: 'Demo Campus', parent_id: null, building_type: 'MIXED_USE' });
    const buildings = await client.get('/api/v1/building_blocks', {
      account_id: accountId,
      parent_id: seed!.blockId,
      sortBy: 'name',
      sortOrder: 'asc',
    });
    expect(buildings.body.data.map((b: { name: string }) => b.name)).toEqual(['North Building', 'South Building']);
    for (const building of buildings.body.data) {
      const units = await client.get('/api/v1/building_blocks', { account_id: accountId, parent_id: building.id });
      expect(units.body.count).toBe(2);
    }
  });

  it('gives the campus a water meter read by hand each month for a year, priced as the water supply', async () => {
    const client = await demoClient();
    const account_id = seed!.accountId;
    const reads = await client.get(`/api/v1/meters/${seed!.waterMeterId}/register-reads`, { account_id });
    expect(reads.status).toBe(200);
    expect(reads.body.data).toHaveLength(13);
    expect(reads.body.data.filter((r: { estimated: boolean }) => r.estimated)).toHaveLength(1);
    const [last, before] = [reads.body.data.at(-1), reads.body.data.at(-2)];
    const cost = await client.get(`/api/v1/building_blocks/${seed!.blockId}/energy-cost`, {
      account_id,
      start: before.read_at,
      end: last.read_at,
    });
    const water = cost.body.data.sources.find((s: { source: string }) => s.source === 'water');
    expect(water).toMatchObject({ priced: true, meter_sn: 'DEMO-WATER-001' });
    expect(water.bills[0].volume_kl).toBe(last.consumption_kl);
    expect(water.bills[0].lines.map((l: { item_type_code: string }) => l.item_type_code)).toEqual([
      'WATER_CONSUMPTION',
      'SEWERAGE',
      'SERVICE',
      'ADMINISTRATION',
    ]);
  });

  it('puts grid and load electricity meters and a SOLAR meter on the site and names them in its dashboard config', async () => {
    const client = await demoClient();
    const accountId = seed!.accountId;
    const meters = await client.get(`/api/v1/building_blocks/${seed!.blockId}/meters`, {
      account_id: accountId,
      sortBy: 'meter_sn',
      sortOrder: 'asc',
    });
    expect(
      meters.body.data.map((m: { id: number; meter_sn: string; meter_type: string }) => [
        m.id,
        m.meter_sn,
        m.meter_type,
      ]),
    ).toEqual([
      [seed!.meterIds.grid, 'DEMO-GRID-001', 'ELECTRICITY'],
      [seed!.meterIds.load, 'DEMO-LOAD-001', 'ELECTRICITY'],
      [seed!.meterIds.solar, 'DEMO-SOLAR-001', 'SOLAR'],
      [seed!.waterMeterId, 'DEMO-WATER-001', 'WATER'],
    ]);
    const config = await client.get(`/api/v1/building_blocks/${seed!.blockId}/config`, { account_id: accountId });
    expect(config.body.data).toMatchObject({
      grid_meter_id: seed!.meterIds.grid,
      solar_meter_id: seed!.meterIds.solar,
      load_meter_id: seed!.meterIds.load,
    });
  });

  it('prices the grid meter alone with the Homeflex of this tariff year, on the meter and in the config', async () => {
    const client = await demoClient();
    const accountId = seed!.accountId;
    const { gridTariffId } = seed!.tariffIds;
    const grid = await client.get(`/api/v1/tariffs/${gridTariffId}`, { account_id: accountId });
    expect(grid.body.data).toMatchObject({
      cloned_from: 17,
      name: 'Eskom Homeflex 1 2026/27 (illustrative)',
      tariff_type: 'TIME_OF_USE',
      account_id: accountId,
      effective_from: '2026-04-01',
      effective_to: '2027-03-31',
    });
    expect(grid.body.data.tariff_items.at(-1)).toMatchObject({ item_type_code: 'EXPORTED_ENERGY', price: 1.054 });
    for (const [meterId, tariffId] of [
      [seed!.meterIds.grid, gridTariffId],
      [seed!.meterIds.solar, null],
      [seed!.meterIds.load, null],
    ]) {
      const meter = await client.get(`/api/v1/meters/${meterId}`, { account_id: accountId });
      expect(meter.body.data.tariff_id).toBe(tariffId);
    }
    const config = await client.get(`/api/v1/building_blocks/${seed!.blockId}/config`, { account_id: accountId });
    expect(config.body.data).toMatchObject({
      grid_tariff_id: gridTariffId,
      solar_tariff_id: null,
      load_tariff_id: null,
    });
  });

  it('replaced the 2025/26 tariff by its 2026/27 successor from 1 April 2026 (local midnight), in the history too', async () => {
    const client = await demoClient();
    const account_id = seed!.accountId;
    const first = await client.get(`/api/v1/tariffs/${seed!.firstTariffId}`, { account_id });
    expect(first.body.data).toMatchObject({ cloned_from: 6, effective_from: '2025-04-01', effective_to: '2026-03-31' });
    const transition = await client.get(`/api/v1/tariffs/${seed!.firstTariffId}/transitions`, { account_id });
    expect(transition.status).toBe(200);
    expect(transition.body.data).toMatchObject({
      successor_id: seed!.tariffIds.gridTariffId,
      effective_from: '2026-03-31T22:00:00.000Z',
      applied_at: NOW.toISOString(),
    });
    const history = await client.get(`/api/v1/meters/${seed!.meterIds.grid}/tariff-history`, { account_id });
    expect(
      history.body.data.map((r: { tariff_id: number; effective_from: string | null; cause: string }) => [
        r.tariff_id,
        r.effective_from,
        r.cause,
      ]),
    ).toEqual([
      [seed!.firstTariffId, null, 'UPDATE'],
      [seed!.tariffIds.gridTariffId, '2026-03-31T22:00:00.000Z', 'TRANSITION'],
    ]);
  });

  it("names the grid tariff's successor from the next 1 April (local midnight), a transition not yet applied", async () => {
    const client = await demoClient();
    const accountId = seed!.accountId;
    const { year, startsAt } = nextTariffYear(NOW);
    expect(year).toBe(2027);
    const transition = await client.get(`/api/v1/tariffs/${seed!.tariffIds.gridTariffId}/transitions`, {
      account_id: accountId,
    });
    expect(transition.body.data).toMatchObject({
      successor_id: seed!.nextTariffId,
      effective_from: '2027-03-31T22:00:00.000Z',
      applied_at: null,
    });
    expect(startsAt.toISOString()).toBe('2027-03-31T22:00:00.000Z');
    const successor = await client.get(`/api/v1/tariffs/${seed!.nextTariffId}`, { account_id: accountId });
    expect(successor.body.data).toMatchObject({
      name: 'Eskom Homeflex 1 2027/28',
      cloned_from: 17,
      effective_from: '2027-04-01',
      effective_to: '2028-03-31',
      notes: "The 2026/27 prices until this year's are published",
    });
    expect(successor.body.data.tariff_items.at(-1)).toMatchObject({ item_type_code: 'EXPORTED_ENERGY' });
  });

  it('takes the next tariff year from the local date: 1 April is local midnight, 22:00 UTC the day before', () => {
    expect(nextTariffYear(new Date('2026-03-31T21:59:59Z'))).toEqual({
      year: 2026,
      startsAt: new Date('2026-03-31T22:00:00Z'),
    });
    expect(nextTariffYear(new Date('2026-03-31T22:00:00Z')).year).toBe(2027);
    expect(nextTariffYear(new Date('2026-11-23T12:00:00Z')).year).toBe(2027);
  });

  it('stores 90 days of half-hourly readings up to now for each meter, with solar exported at midday', async () => {
    const client = await demoClient();
    const end = NOW;
    const start = new Date(end.getTime() - 90 * 86_400_000);
    const sums = await client.post('/api/v1/timeseries/electricity/energy-sums', {
      account_id: seed!.accountId,
      meter_sns: ['DEMO-GRID-001', 'DEMO-SOLAR-001', 'DEMO-LOAD-001'],
      start: start.toISOString(),
      end: end.toISOString(),
    });
    expect(sums.status).toBe(200);
    const [grid, solar, load] = sums.body.data;
    for (const meter of [grid, solar, load]) expect(meter.readings).toBeGreaterThanOrEqual(90 * 48 - 1);
    expect(load.import_kwh).toBeGreaterThan(grid.import_kwh * 0.5);
    expect(solar.export_kwh).toBeGreaterThan(0);
  });

  it("meters the North Building's units as tenants on the grid tariff: the recovery shows their bills", async () => {
    const client = await demoClient();
    // October 2026 in South African time: a month of the demo's readings.
    const month = { start: '2026-09-30T22:00:00.000Z', end: '2026-10-31T22:00:00.000Z' };
    const res = await client.get(`/api/v1/building_blocks/${seed!.blockId}/recovery`, {
      account_id: seed!.accountId,
      ...month,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { tenants, supply, unrecovered } = res.body.data;
    expect(
      tenants.map((x: { name: string; meter_sn: string; priced: boolean }) => [x.name, x.meter_sn, x.priced]),
    ).toEqual([
      ['North Unit 1', 'DEMO-TENANT-N1', true],
      ['North Unit 2', 'DEMO-TENANT-N2', true],
    ]);
    for (const tenant of tenants) {
      expect(tenant.readings.count).toBe(31 * 48);
      expect(tenant.lines.length).toBeGreaterThan(0);
      expect(tenant.total).toBeGreaterThan(0);
    }
    // The tenants read 30 % and 18 % of the load; the rest of the grid supply is common.
    expect(tenants[0].import_kwh).toBeGreaterThan(tenants[1].import_kwh);
    expect(unrecovered.common_kwh).toBeGreaterThan(0);
    expect(unrecovered.common_kwh).toBeLessThan(supply.import_kwh);
  });

  it("seeds the utility's invoice of the last whole month as our bill but for one line, the one its check flags", async () => {
    const login = await call(t.app, 'POST', '/api/v1/auth/login', {
      body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    const token = login.body.data.access_token;
    const query = { account_id: seed!.accountId };
    const invoice = (await call(t.app, 'GET', `/api/v1/invoices/${seed!.invoiceId}`, { token, query })).body.data;
    expect([invoice.supplier, invoice.invoice_number, invoice.start, invoice.end]).toEqual([
      'City Power',
      'DEMO-2026-10',
      '2026-09-30T22:00:00.000Z',
      '2026-10-31T22:00:00.000Z',
    ]);
    const period = { building_block_id: seed!.blockId, source: 'grid', start: invoice.start, end: invoice.end };
    const draft = await call(t.app, 'POST', '/api/v1/invoices/draft', { token, query: { ...query, ...period } });
    expect(draft.status).toBe(200);
    const changed = draft.body.data.lines.findIndex(
      (line: { item_type_code: string }) => line.item_type_code === 'SERVICE',
    );
    const ours = draft.body.data.lines[changed];
    expect(invoice.lines).toEqual(
      draft.body.data.lines.with(changed, { ...ours, amount: new Decimal(ours.amount).plus(50).toNumber() }),
    );
    const money = (value: number, more: number) => new Decimal(value).plus(more).toNumber();
    expect([invoice.subtotal, invoice.tax, invoice.total]).toEqual([
      money(draft.body.data.subtotal, 50),
      money(draft.body.data.tax, 7.5),
      money(draft.body.data.total, 57.5),
    ]);

    const check = await call(t.app, 'GET', `/api/v1/invoices/${seed!.invoiceId}/check`, { token, query });
    expect(check.status).toBe(200);
    expect(check.body.data.flags).toEqual([
      {
        code: 'LINE_VARIANCE',
        severity: 'error',
        message: 'Service charge: the invoice charges R 160,36, our bill R 110,36 (R 50,00 more)',
      },
    ]);
    expect(check.body.data.lines.filter((line: { difference: number | null }) => line.difference !== 0)).toEqual([
      expect.objectContaining({ item_type_code: 'SERVICE', difference: 50 }),
    ]);
  });

  it('runs once: a second call changes nothing', async () => {
    expect(await seedDemo(t)).toBeUndefined();
    const [row] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM meters');
    expect(row!.count).toBe(6);
  });
});
