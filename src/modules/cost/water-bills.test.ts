import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, type TestMeter } from '../../../test/helpers/timeseries-factories.ts';

// The catalogue's City of Cape Town water and sanitation tariffs (migration 0020, illustrative prices).
const DOMESTIC_2025 = 13;
const COMMERCIAL_2025 = 21;

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

/** A water meter with a register read at each instant (kL on the dial). */
async function waterMeterRead(reads: [string, number][]): Promise<TestMeter> {
  const meter = await insertMeter(t.db, org.accountId, { meter_type: 'WATER', interval_minutes: 60 });
  const res = await org.admin.client.post(`/api/v1/meters/${meter.id}/register-reads`, {
    account_id: org.accountId,
    reads: reads.map(([read_at, register_kl]) => ({ read_at, register_kl })),
  });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return meter;
}

async function bill(tariffId: number, meter: TestMeter, start: string, end: string) {
  const res = await org.member.client.get(`/api/v1/tariffs/${tariffId}/cost`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    start,
    end,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

const line = (
  item_type_code: string,
  block_index: number | null,
  quantity: number,
  unit: string,
  unit_price: number,
  amount: number,
) => ({
  item_type_code,
  season: 'ALL_YEAR',
  period: null,
  block_index,
  quantity,
  unit,
  unit_price,
  amount,
});

describe('a water bill of the City of Cape Town (illustrative 2025/26 prices, excl. VAT 15 %)', () => {
  it('a household of 4 using 18 kL in September 2025: water across three steps, sanitation on 70 %', async () => {
    const meter = await waterMeterRead([
      ['2025-09-01T00:00:00+02:00', 1234],
      ['2025-10-01T00:00:00+02:00', 1252],
    ]);
    // By hand, September (30 days, a whole month: the steps as published):
    //   water 18 kL:       6 kL x R29.70 = R178.20
    //                    4.5 kL x R44.20 = R198.90
    //                    7.5 kL x R63.95 = R479.625 -> R479.63
    //   sanitation 70 % of 18 kL = 12.6 kL:
    //                    4.2 kL x R26.50 = R111.30
    //                   3.15 kL x R37.90 = R119.385 -> R119.39
    //                   5.25 kL x R49.60 = R260.40
    //   fixed water charge R62.00, fixed sanitation charge R48.00 (a whole month)
    //   subtotal R1,457.82; VAT 15 % R218.673 -> R218.67; total R1,676.49
    const result = await bill(DOMESTIC_2025, meter, '2025-09-01T00:00:00+02:00', '2025-10-01T00:00:00+02:00');
    expect(result.lines).toEqual([
      line('WATER_CONSUMPTION', 0, 6, 'kL', 29.7, 178.2),
      line('WATER_CONSUMPTION', 1, 4.5, 'kL', 44.2, 198.9),
      line('WATER_CONSUMPTION', 2, 7.5, 'kL', 63.95, 479.63),
      line('SEWERAGE', 0, 4.2, 'kL', 26.5, 111.3),
      line('SEWERAGE', 1, 3.15, 'kL', 37.9, 119.39),
      line('SEWERAGE', 2, 5.25, 'kL', 49.6, 260.4),
      line('SERVICE', null, 1, 'month', 62, 62),
      line('ADMINISTRATION', null, 1, 'month', 48, 48),
    ]);
    expect(result).toMatchObject({
      volume_kl: 18,
      import_kwh: 0,
      max_kva: null,
      subtotal: 1457.82,
      tax: 218.67,
      total: 1676.49,
      complete: true,
      warnings: [],
      missing_intervals: 0,
    });
    expect(result.months).toHaveLength(1);
    expect(result.months[0]).toMatchObject({ month: '2025-09', volume_kl: 18, total: 1676.49, complete: true });
  });

  it('an office using 220 kL in October 2025: one price per kL, sanitation on 95 %', async () => {
    const meter = await waterMeterRead([
      ['2025-10-01T00:00:00+02:00', 50_000],
      ['2025-11-01T00:00:00+02:00', 50_220],
    ]);
    // By hand, October (a whole month):
    //   water 220 kL x R52.80 = R11,616.00
    //   sanitation 95 % of 220 kL = 209 kL x R45.70 = R9,551.30
    //   fixed water charge R310.00, fixed sanitation charge R250.00
    //   subtotal R21,727.30; VAT 15 % R3,259.095 -> R3,259.10; total R24,986.40
    const result = await bill(COMMERCIAL_2025, meter, '2025-10-01T00:00:00+02:00', '2025-11-01T00:00:00+02:00');
    expect(result.lines).toEqual([
      line('WATER_CONSUMPTION', null, 220, 'kL', 52.8, 11616),
      line('SEWERAGE', null, 209, 'kL', 45.7, 9551.3),
      line('SERVICE', null, 1, 'month', 310, 310),
      line('ADMINISTRATION', null, 1, 'month', 250, 250),
    ]);
    expect(result).toMatchObject({ volume_kl: 220, subtotal: 21727.3, tax: 3259.1, total: 24986.4, complete: true });
  });

  it('a part month: the steps, the sanitation steps and the monthly charges in proportion to its days / 30', async () => {
    const meter = await waterMeterRead([
      ['2025-09-16T00:00:00+02:00', 0],
      ['2025-10-01T00:00:00+02:00', 9],
    ]);
    // 15 days of September: every step x 15 / 30 = 0.5 (water 0-3, 3-5.25, 5.25-17.5 kL; sanitation
    // 0-2.1, 2.1-3.675, 3.675-7 kL). 9 kL of water, 6.3 kL of sewage:
    //   3 x R29.70 = R89.10; 2.25 x R44.20 = R99.45; 3.75 x R63.95 = R239.8125 -> R239.81
    //   2.1 x R26.50 = R55.65; 1.575 x R37.90 = R59.6925 -> R59.69; 2.625 x R49.60 = R130.20
    //   half a month of fixed charges: R31.00 and R24.00; subtotal R728.90
    const result = await bill(DOMESTIC_2025, meter, '2025-09-16T00:00:00+02:00', '2025-10-01T00:00:00+02:00');
    expect(result.lines).toEqual([
      line('WATER_CONSUMPTION', 0, 3, 'kL', 29.7, 89.1),
      line('WATER_CONSUMPTION', 1, 2.25, 'kL', 44.2, 99.45),
      line('WATER_CONSUMPTION', 2, 3.75, 'kL', 63.95, 239.81),
      line('SEWERAGE', 0, 2.1, 'kL', 26.5, 55.65),
      line('SEWERAGE', 1, 1.575, 'kL', 37.9, 59.69),
      line('SEWERAGE', 2, 2.625, 'kL', 49.6, 130.2),
      line('SERVICE', null, 0.5, 'month', 62, 31),
      line('ADMINISTRATION', null, 0.5, 'month', 48, 24),
    ]);
    expect(result.subtotal).toBe(728.9);
  });

  it('sanitation at 70 % stops at its cap of 35 kL a month', async () => {
    const meter = await waterMeterRead([
      ['2025-09-01T00:00:00+02:00', 0],
      ['2025-10-01T00:00:00+02:00', 60],
    ]);
    // 70 % of 60 kL is 42 kL of sewage: 35 kL are charged, across all five steps.
    const result = await bill(DOMESTIC_2025, meter, '2025-09-01T00:00:00+02:00', '2025-10-01T00:00:00+02:00');
    const sewerage = result.lines.filter((l: { item_type_code: string }) => l.item_type_code === 'SEWERAGE');
    expect(sewerage).toEqual([
      line('SEWERAGE', 0, 4.2, 'kL', 26.5, 111.3),
      line('SEWERAGE', 1, 3.15, 'kL', 37.9, 119.39),
      line('SEWERAGE', 2, 6.65, 'kL', 49.6, 329.84),
      line('SEWERAGE', 3, 10.5, 'kL', 61.3, 643.65),
      line('SEWERAGE', 4, 10.5, 'kL', 73.2, 768.6),
    ]);
    const water = result.lines.filter((l: { item_type_code: string }) => l.item_type_code === 'WATER_CONSUMPTION');
    expect(water.map((l: { quantity: number }) => l.quantity)).toEqual([6, 4.5, 24.5, 15, 10]);
  });

  it('fixed charges per day, and items that mean nothing for a water meter are warned about, not priced', async () => {
    const tariff = await createTariff(org.admin.client, org.accountId, { meter_type: 'WATER', tariff_type: 'FLAT' });
    await createItems(org.admin.client, tariff.id, [
      { item_type_code: 'WATER_CONSUMPTION', price: 20, season: 'ALL_YEAR', unit: 'kL' },
      { item_type_code: 'SERVICE', price: 1.5, season: 'ALL_YEAR', unit: 'day' },
      { item_type_code: 'IMPORT_ENERGY', price: 2, season: 'ALL_YEAR' },
    ]);
    const meter = await waterMeterRead([
      ['2025-03-01T00:00:00Z', 0],
      ['2025-03-11T00:00:00Z', 5],
    ]);
    const result = await bill(tariff.id, meter, '2025-03-01T00:00:00Z', '2025-03-11T00:00:00Z');
    expect(result.lines).toEqual([
      line('WATER_CONSUMPTION', null, 5, 'kL', 20, 100),
      line('SERVICE', null, 10, 'day', 1.5, 15),
    ]);
    expect(result.complete).toBe(false);
    expect(result.warnings).toEqual([
      'IMPORT_ENERGY items are not priced: the item type has no meaning for a water meter',
    ]);
  });

  it('takes volume_share and max_kl on SEWERAGE items only', async () => {
    const tariff = await createTariff(org.admin.client, org.accountId, { meter_type: 'WATER', tariff_type: 'FLAT' });
    const res = await org.admin.client.post(`/api/v1/tariffs/${tariff.id}/items`, {
      item_type_code: 'WATER_CONSUMPTION',
      price: 20,
      season: 'ALL_YEAR',
      unit: 'kL',
      volume_share: 0.7,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('volume_share: Only a SEWERAGE item may have one'));
    const sewerage = await org.admin.client.post(`/api/v1/tariffs/${tariff.id}/items`, {
      item_type_code: 'SEWERAGE',
      price: 10,
      season: 'ALL_YEAR',
      unit: 'kL',
      volume_share: 0.7,
      max_kl: 35,
    });
    expect(sewerage.status).toBe(201);
    expect(sewerage.body.data[0]).toMatchObject({ volume_share: 0.7, max_kl: 35, unit: 'kL' });
  });
});
