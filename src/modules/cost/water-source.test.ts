import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { invoiceBody } from '../../../test/helpers/invoice-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// The catalogue's City of Cape Town tariffs (migrations 0004 and 0020, illustrative prices).
const COMMERCIAL_WATER_2025 = 21;
const CAPE_TOWN_DOMESTIC_ELECTRICITY = 11;
const WATER_TARIFFS = [13, 20, 21, 22];

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let blockId: number;

const OCTOBER = { start: '2025-10-01T00:00:00+02:00', end: '2025-11-01T00:00:00+02:00' };

async function clone(catalogueId: number) {
  const res = await org.admin.client.post(`/api/v1/tariffs/catalogue/${catalogueId}/clone`, {
    account_id: org.accountId,
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body.data.id as number;
}

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const block = await createBlock(org.admin.client, org.accountId, { building_type: 'RESIDENTIAL' });
  blockId = block.id;
  const [water, grid] = await Promise.all([
    createMeter(org.admin.client, org.accountId, blockId, { meter_type: 'WATER', interval_minutes: 60 }),
    createMeter(org.admin.client, org.accountId, blockId),
  ]);
  const reads = await org.admin.client.post(`/api/v1/meters/${water.id}/register-reads`, {
    account_id: org.accountId,
    reads: [
      { read_at: OCTOBER.start, register_kl: 50_000 },
      { read_at: OCTOBER.end, register_kl: 50_220 },
    ],
  });
  expect(reads.status).toBe(200);
  const readings = Array.from({ length: 31 * 48 }, (_, i) => ({
    ts: new Date(Date.parse(OCTOBER.start) + i * 30 * 60_000).toISOString(),
    import_kwh: 1,
  }));
  const ingest = await org.admin.client.post('/api/v1/timeseries/electricity/readings', {
    account_id: org.accountId,
    meter_sn: grid.meter_sn,
    readings,
  });
  expect(ingest.status).toBe(200);
  const config = await org.admin.client.put(`/api/v1/building_blocks/${blockId}/config`, {
    account_id: org.accountId,
    grid_meter_id: grid.id,
    grid_tariff_id: await clone(CAPE_TOWN_DOMESTIC_ELECTRICITY),
    water_supply_meter_id: water.id,
    water_supply_tariff_id: await clone(COMMERCIAL_WATER_2025),
  });
  expect([200, 201]).toContain(config.status);
  expect(config.body.data.water_supply_tariff_id).toEqual(expect.any(Number));
});
afterAll(async () => t.close());

describe('the building cost source water', () => {
  it('prices the water supply with its tariff: a bill in kL with lines, months, warnings and complete', async () => {
    const res = await org.member.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, {
      account_id: org.accountId,
      ...OCTOBER,
    });
    expect(res.status).toBe(200);
    const water = res.body.data.sources.find((s: { source: string }) => s.source === 'water');
    // The office of the hand calculation in water-bills.test.ts: 220 kL, R24,986.40 with VAT.
    expect(water).toMatchObject({ priced: true, reason: null, total: 24986.4 });
    expect(water.bills).toHaveLength(1);
    expect(water.bills[0]).toMatchObject({ volume_kl: 220, complete: true, warnings: [], subtotal: 21727.3 });
    expect(water.bills[0].months.map((m: { month: string; volume_kl: number }) => [m.month, m.volume_kl])).toEqual([
      ['2025-10', 220],
    ]);
    expect(
      water.bills[0].lines.map((l: { item_type_code: string; unit: string }) => [l.item_type_code, l.unit]),
    ).toEqual([
      ['WATER_CONSUMPTION', 'kL'],
      ['SEWERAGE', 'kL'],
      ['SERVICE', 'month'],
      ['ADMINISTRATION', 'month'],
    ]);
  });

  it('checks a water invoice like an electricity one', async () => {
    const created = await org.admin.client.post(
      '/api/v1/invoices',
      invoiceBody(org.accountId, blockId, {
        source: 'water',
        supplier: 'City of Cape Town',
        ...OCTOBER,
        lines: [
          {
            description: 'Water 220 kL',
            item_type_code: 'WATER_CONSUMPTION',
            quantity: 220,
            unit: 'kL',
            amount: 11616,
          },
          { description: 'Sanitation 209 kL', item_type_code: 'SEWERAGE', quantity: 230, unit: 'kL', amount: 9551.3 },
          { description: 'Fixed water', item_type_code: 'SERVICE', quantity: 1, unit: 'month', amount: 310 },
          {
            description: 'Fixed sanitation',
            item_type_code: 'ADMINISTRATION',
            quantity: 1,
            unit: 'month',
            amount: 250,
          },
        ],
        subtotal: 21727.3,
        tax: 3259.1,
        total: 24986.4,
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.source).toBe('water');
    const res = await org.member.client.get(`/api/v1/invoices/${created.body.data.id}/check`, {
      account_id: org.accountId,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      computed: { total: 24986.4, volume_kl: 220, complete: true, warnings: [] },
      invoice_total: 24986.4,
      difference: 0,
      status: 'flagged',
    });
    // The sanitation quantity invoiced (230 kL) is not the 95 % of 220 kL measured.
    expect(res.body.data.flags.map((f: { code: string }) => f.code)).toEqual(['QUANTITY_MISMATCH']);
    expect(res.body.data.flags[0].message).toBe(
      'Sewerage (sanitation): the invoice counts 230 kL, the meter measured 209 kL',
    );
  });

  it('an electricity comparison never offers a water tariff', async () => {
    const res = await org.member.client.get(`/api/v1/building_blocks/${blockId}/tariff-comparison`, {
      account_id: org.accountId,
      ...OCTOBER,
    });
    expect(res.status).toBe(200);
    const offered = res.body.data.candidates.map((c: { tariff_id: number }) => c.tariff_id);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.filter((id: number) => WATER_TARIFFS.includes(id))).toEqual([]);
  });
});
