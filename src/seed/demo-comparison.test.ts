import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, clientFor } from '../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed, seedDemo } from './demo.ts';

let t: TestApp;
let seed: DemoSeed;
const NOW = new Date('2026-11-22T10:17:00Z');
// The last 12 whole months on the demo's clock (Africa/Johannesburg, UTC+2).
const YEAR = { start: '2025-11-01T00:00:00+02:00', end: '2026-11-01T00:00:00+02:00' };

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

describe('the demo’s tariff comparison of the last 12 months', () => {
  it('recommends an eligible tariff of 2026/27 and bills nothing before the meters’ first readings', async () => {
    const client = await demoClient();
    const res = await client.get(`/api/v1/building_blocks/${seed.blockId}/tariff-comparison`, {
      account_id: seed.accountId,
      ...YEAR,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    // The readings begin on 24 August 2026 (local midnight): the bills begin there.
    expect(data.current.months.map((m: { month: string }) => m.month)).toEqual(['2026-08', '2026-09', '2026-10']);
    expect(data.current).toMatchObject({
      complete: true,
      warnings: ["Billed from the meter's installation on 2026-08-24"],
    });
    for (const candidate of data.candidates) {
      expect(candidate).toMatchObject({ eligible: true, reasons: [], complete: true });
      expect(candidate.months[0].month).toBe('2026-08');
    }
    expect(data.recommendation).toMatchObject({ tariff_id: 18, family: 'eskom-miniflex' });
    expect(data.recommendation.saving).toBeGreaterThan(0);
    const recommended = await client.get('/api/v1/tariffs/catalogue/18');
    expect(recommended.body.data).toMatchObject({ effective_from: '2026-04-01', effective_to: '2027-03-31' });
    const cost = await client.get(`/api/v1/building_blocks/${seed.blockId}/energy-cost`, {
      account_id: seed.accountId,
      ...YEAR,
    });
    const grid = cost.body.data.sources.find((s: { source: string }) => s.source === 'grid');
    // The tariff of 2025/26 priced nothing: its months were before the installation.
    const months = grid.bills.flatMap((bill: { months: { month: string }[] }) => bill.months);
    expect(months.map((m: { month: string }) => m.month)).toEqual(['2026-08', '2026-09', '2026-10']);
  });
});
