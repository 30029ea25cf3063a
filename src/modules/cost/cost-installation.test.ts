import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest } from '../../../test/helpers/timeseries-factories.ts';

// Extensions §13.2: no bill charges a day before the meter's installation. The tariff: energy
// 1.00/kWh and a monthly charge of 310.00, untaxed, in Johannesburg. Each meter reads 10 kWh at
// noon of each day it has readings. The period: September and October 2026.

const PERIOD = { start: '2026-09-01T00:00:00+02:00', end: '2026-11-01T00:00:00+02:00' };
const DAY_MS = 86_400_000;

let t: TestApp;
let org: OrganizationWithRoles;
let tariffId: number;

/** 10 kWh at noon of each local day from `first` (YYYY-MM-DD) to the end of October. */
function dailyFrom(first: string) {
  const start = Date.parse(`${first}T12:00:00+02:00`);
  const days = Math.round((Date.parse('2026-11-01T12:00:00+02:00') - start) / DAY_MS);
  return Array.from({ length: days }, (_, i) => ({ ts: new Date(start + i * DAY_MS).toISOString(), import_kwh: 10 }));
}

/** A block whose grid meter (with these fields and readings) is priced by the tariff. */
async function meteredBlock(fields: Record<string, unknown>, readings: { ts: string; import_kwh: number }[]) {
  const block = await createBlock(org.owner.client, org.accountId);
  const meter = await createMeter(org.owner.client, org.accountId, block.id, fields);
  if (readings.length > 0) await ingest(org.owner.client, org.accountId, meter.meter_sn, readings);
  const config = await org.owner.client.put(`/api/v1/building_blocks/${block.id}/config`, {
    account_id: org.accountId,
    grid_meter_id: meter.id,
    grid_tariff_id: tariffId,
  });
  expect(config.status, JSON.stringify(config.body)).toBe(200);
  return { blockId: block.id as number, meter };
}

const buildingCost = async (blockId: number) => {
  const res = await org.member.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, {
    account_id: org.accountId,
    ...PERIOD,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.sources.find((s: { source: string }) => s.source === 'grid');
};

const tariffCost = async (meterSn: string) => {
  const res = await org.member.client.get(`/api/v1/tariffs/${tariffId}/cost`, {
    account_id: org.accountId,
    meter_sn: meterSn,
    ...PERIOD,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

const monthTotals = (months: { month: string; total: number }[]) => months.map(({ month, total }) => [month, total]);

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const tariff = await createTariff(org.owner.client, org.accountId, {
    name: 'Energy and a monthly charge',
    effective_from: '2026-01-01',
    effective_to: '2026-12-31',
  });
  tariffId = tariff.id;
  await createItems(org.owner.client, tariffId, [
    { item_type_code: 'IMPORT_ENERGY', price: 1, season: 'ALL_YEAR' },
    { item_type_code: 'SERVICE', price: 310, season: 'ALL_YEAR', unit: 'month' },
  ]);
});
afterAll(async () => t.close());

describe('installed_on of a meter', () => {
  it('is null by default, set and cleared through create and update, and must be a date', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const meter = await createMeter(org.owner.client, org.accountId, block.id);
    expect(meter.installed_on).toBeNull();
    const url = `/api/v1/meters/${meter.id}`;
    const set = await org.admin.client.put(url, { account_id: org.accountId, installed_on: '2026-10-15' });
    expect([set.status, set.body.data.installed_on]).toEqual([200, '2026-10-15']);
    expect((await org.member.client.get(url, { account_id: org.accountId })).body.data.installed_on).toBe('2026-10-15');
    const cleared = await org.admin.client.put(url, { account_id: org.accountId, installed_on: null });
    expect(cleared.body.data.installed_on).toBeNull();
    const created = await createMeter(org.owner.client, org.accountId, block.id, { installed_on: '2026-01-31' });
    expect(created.installed_on).toBe('2026-01-31');
    const bad = await org.admin.client.put(url, { account_id: org.accountId, installed_on: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^installed_on: /);
  });
});

describe('bills from the installation on', () => {
  it('leaves out the months before a meter installed mid-month and bills that month from the day', async () => {
    const { blockId, meter } = await meteredBlock({ installed_on: '2026-10-15' }, dailyFrom('2026-10-15'));
    // 17 days of October: 170 kWh x 1.00 + 310.00 x 17/31 = 170.00 = 340.00; September not billed.
    const grid = await buildingCost(blockId);
    expect(grid.total).toBe(340);
    expect(grid.bills).toHaveLength(1);
    const [bill] = grid.bills;
    expect(monthTotals(bill.months)).toEqual([['2026-10', 340]]);
    expect(bill.start).toBe('2026-10-14T22:00:00.000Z');
    expect(bill.warnings[0]).toBe("Billed from the meter's installation on 2026-10-15");
    expect(bill.months[0].warnings[0]).toBe("Billed from the meter's installation on 2026-10-15");
    const same = await tariffCost(meter.meter_sn);
    expect([same.total, monthTotals(same.months), same.warnings]).toEqual([340, [['2026-10', 340]], bill.warnings]);
    const recovery = await org.member.client.get(`/api/v1/building_blocks/${blockId}/recovery`, {
      account_id: org.accountId,
      ...PERIOD,
    });
    expect([recovery.status, recovery.body.data.supply.total]).toEqual([200, 340]);
    const invoice = await org.owner.client.post('/api/v1/invoices', {
      account_id: org.accountId,
      building_block_id: blockId,
      supplier: 'Eskom',
      invoice_number: 'INSTALLED-MID-OCTOBER',
      issued_on: '2026-11-05',
      currency: 'ZAR',
      ...PERIOD,
      lines: [{ description: 'Energy and service', item_type_code: null, quantity: null, unit: null, amount: 340 }],
      subtotal: 340,
      tax: 0,
      total: 340,
    });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    const checked = await org.member.client.get(`/api/v1/invoices/${invoice.body.data.id}/check`, {
      account_id: org.accountId,
    });
    expect([checked.status, checked.body.data.computed.total, checked.body.data.difference]).toEqual([200, 340, 0]);
  });

  it('without installed_on bills from the local date of the first reading', async () => {
    const { blockId } = await meteredBlock({}, dailyFrom('2026-10-22'));
    // 10 days: 100.00 + 310.00 x 10/31 = 100.00 -> 200.00.
    const grid = await buildingCost(blockId);
    expect(grid.total).toBe(200);
    expect(grid.bills[0].warnings).toContain("Billed from the meter's installation on 2026-10-22");
  });

  it('bills from an installation before the first reading, the days without readings included', async () => {
    const { blockId } = await meteredBlock({ installed_on: '2026-09-01' }, dailyFrom('2026-10-01'));
    // Both months in full: September's 310.00 (no readings), October's 310 kWh + 310.00.
    const grid = await buildingCost(blockId);
    expect(monthTotals(grid.bills[0].months)).toEqual([
      ['2026-09', 310],
      ['2026-10', 620],
    ]);
    expect(grid.bills[0].warnings).toContain('No readings in 2026-09');
    expect(grid.bills[0].warnings.filter((w: string) => w.startsWith('Billed from'))).toEqual([]);
  });

  it('bills nothing for a meter installed after the period, and nothing for one without readings, saying why', async () => {
    const later = await meteredBlock({ installed_on: '2026-11-01' }, []);
    const none = await meteredBlock({}, []);
    for (const [blockId, warning, complete] of [
      [later.blockId, "Billed from the meter's installation on 2026-11-01", true],
      [none.blockId, 'No readings yet', false],
    ] as const) {
      const grid = await buildingCost(blockId);
      expect(grid.total).toBe(0);
      expect(grid.bills[0]).toMatchObject({ total: 0, months: [], lines: [], warnings: [warning], complete });
    }
    const cost = await tariffCost(none.meter.meter_sn);
    expect([cost.total, cost.months, cost.warnings]).toEqual([0, [], ['No readings yet']]);
  });

  it('compares tariffs over the supply only: current and candidates leave out the months before it', async () => {
    const { blockId } = await meteredBlock(
      { installed_on: '2026-10-15', notified_max_demand_kva: 10 },
      dailyFrom('2026-10-15'),
    );
    const res = await org.member.client.get(`/api/v1/building_blocks/${blockId}/tariff-comparison`, {
      account_id: org.accountId,
      ...PERIOD,
      tariff_ids: String(tariffId),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.current).toMatchObject({ total: 340, months: [{ month: '2026-10', total: 340 }] });
    expect(res.body.data.candidates[0]).toMatchObject({
      total: 340,
      difference: 0,
      months: [{ month: '2026-10', total: 340 }],
    });
    expect(res.body.data.candidates[0].warnings).toContain("Billed from the meter's installation on 2026-10-15");
  });

  it('refuses an installed_on that is not a date with 400 naming the field', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const res = await org.owner.client.post('/api/v1/meters', {
      account_id: org.accountId,
      building_block_id: block.id,
      meter_sn: 'INSTALLED-BAD',
      meter_type: 'ELECTRICITY',
      installed_on: 'yesterday',
    });
    expect([res.status, res.body]).toEqual([400, invalid('installed_on: Invalid ISO date')]);
  });
});
