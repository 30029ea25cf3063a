import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, clientFor } from '../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { TIMESERIES } from '../../test/helpers/timeseries-factories.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed, seedDemo } from './demo.ts';

let t: TestApp;
let seed: DemoSeed;
const NOW = new Date('2026-11-22T10:17:00Z');
// October 2026 on the demo's clock (Africa/Johannesburg, UTC+2): a whole month of the 90 days seeded.
const MONTH = { start: '2026-10-01T00:00:00+02:00', end: '2026-11-01T00:00:00+02:00' };

beforeAll(async () => {
  t = await startTestApp();
  seed = (await seedDemo(t, NOW))!;
});
afterAll(async () => t.close());

async function demoClient() {
  const login = await call(t.app, 'POST', '/api/v1/auth/login', {
    body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });
  expect(login.status).toBe(200);
  return clientFor(t.app, login.body.data.access_token);
}

interface Line {
  item_type_code: string;
  quantity: number;
  amount: number;
}

describe('demo building cost', () => {
  it('prices energy once: the grid bill, with solar exports credited, and the water bill make the building total', async () => {
    const client = await demoClient();
    const account_id = seed.accountId;
    const res = await client.get(`/api/v1/building_blocks/${seed.blockId}/energy-cost`, { account_id, ...MONTH });
    expect(res.status).toBe(200);
    const sources = res.body.data.sources as {
      source: string;
      priced: boolean;
      reason: string | null;
      total: number;
    }[];
    const priced = sources.filter((s) => s.priced);
    // Energy is priced once, on the grid; the water supply has its own bill.
    expect(priced.map((s) => s.source)).toEqual(['grid', 'water']);
    for (const source of ['solar', 'load']) {
      expect(sources.find((s) => s.source === source)).toMatchObject({
        priced: false,
        reason: 'No tariff configured',
        total: null,
      });
    }

    const grid = priced[0]! as unknown as { bills: { lines: Line[]; total: number }[]; total: number };
    const sum = await client.get(`${TIMESERIES}/energy-sum`, { account_id, meter_sn: 'DEMO-GRID-001', ...MONTH });
    expect(sum.status).toBe(200);
    expect(sum.body.data.export_kwh).toBeGreaterThan(0);
    const credits = grid.bills.flatMap((b) => b.lines).filter((l) => l.item_type_code === 'EXPORTED_ENERGY');
    expect(credits.reduce((q, l) => q + l.quantity, 0)).toBeCloseTo(sum.body.data.export_kwh, 3);
    for (const credit of credits) expect(credit.amount).toBeLessThan(0);
    expect(credits.length).toBeGreaterThan(0);

    const billTotal = grid.bills.reduce((s, b) => s + b.total, 0);
    expect(grid.total).toBeCloseTo(billTotal, 2);
    const water = priced[1]!;
    expect(res.body.data.totals.ZAR).toBeCloseTo(grid.total + water.total, 2);
  });

  it('prices November 2026 with the 2026/27 tariff, valid then: no warning of effective dates', async () => {
    const client = await demoClient();
    const november = { start: '2026-11-01T00:00:00+02:00', end: '2026-12-01T00:00:00+02:00' };
    const res = await client.get(`/api/v1/building_blocks/${seed.blockId}/energy-cost`, {
      account_id: seed.accountId,
      ...november,
    });
    expect(res.status).toBe(200);
    const grid = res.body.data.sources.find((s: { source: string }) => s.source === 'grid');
    expect(grid).toMatchObject({ priced: true, tariff_id: seed.tariffIds.gridTariffId });
    expect(grid.bills.map((b: { tariff_id: number }) => b.tariff_id)).toEqual([seed.tariffIds.gridTariffId]);
    const tariff = await client.get(`/api/v1/tariffs/${seed.tariffIds.gridTariffId}`, { account_id: seed.accountId });
    expect(tariff.body.data).toMatchObject({ effective_from: '2026-04-01', effective_to: '2027-03-31' });
    // Every warning of the answer (the bill's and its months'), none about effective dates.
    expect(JSON.stringify(res.body)).not.toContain("outside the tariff's effective dates");
    expect(grid.bills[0].warnings.length).toBeGreaterThan(0);
  });

  it('gives the solar meter the SOLAR meter type', async () => {
    const client = await demoClient();
    const meter = await client.get(`/api/v1/meters/${seed.meterIds.solar}`, { account_id: seed.accountId });
    expect(meter.status).toBe(200);
    expect(meter.body.data).toMatchObject({ meter_sn: 'DEMO-SOLAR-001', meter_type: 'SOLAR' });
  });
});
