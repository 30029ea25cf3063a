import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import {
  insertBuildingBlock,
  insertMeter,
  insertReadingsAt,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// A bill never hides a rand (extensions §12.1), through the API: on the path that prices from the
// readings (a period without a whole hour) and on the one that prices from the hourly rollups.

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

/** A wall-clock time in Johannesburg (UTC+2). */
const sast = (local: string) => Date.parse(`${local}:00+02:00`);
const HALF_HOUR_MS = 1_800_000;

async function flatTariff(dsoId: number | null, items: { code: string; price: number; season?: string }[]) {
  const id = await insertTariff(t.db, r.accountId);
  await t.db.query('UPDATE tariffs SET dso_id = $2 WHERE id = $1', [id, dsoId]);
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

/** A 30-minute meter with a reading of `kwh` every half hour of [from, to) (local times). */
async function meterReadEvery30(meterSn: string, from: string, to: string, kwh = 1) {
  const block = await insertBuildingBlock(t.db, r.accountId);
  const meterId = await insertMeter(t.db, r.accountId, block, { meterSn });
  const readings = [];
  for (let ts = sast(from); ts < sast(to); ts += HALF_HOUR_MS) readings.push({ ts, import_kwh: kwh });
  await insertReadingsAt(t.db, meterId, readings);
}

async function cost(tariffId: number, meterSn: string, start: string, end: string) {
  const res = await r.member.client.get(`/api/v1/tariffs/${tariffId}/cost`, {
    account_id: r.accountId,
    meter_sn: meterSn,
    start: `${start}:00+02:00`,
    end: `${end}:00+02:00`,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('missing intervals are the aligned interval starts without a reading', () => {
  it('a period from 10:10 to 10:50 with readings at 10:00 and 10:30 misses nothing (from the readings)', async () => {
    await meterReadEvery30('ALIGNED-1', '2025-06-02T10:00', '2025-06-02T11:00');
    const tariff = await flatTariff(1, [{ code: 'IMPORT_ENERGY', price: 2 }]);
    const bill = await cost(tariff, 'ALIGNED-1', '2025-06-02T10:10', '2025-06-02T10:50');
    // The only aligned start is 10:30, read: 1 kWh x 2 = 2.00.
    expect(bill).toMatchObject({ import_kwh: 1, total: 2, missing_intervals: 0, complete: true, warnings: [] });
  });

  it('a period from 10:10 to 12:50 counts 10:30 to 12:30 (from the hourly rollups)', async () => {
    await meterReadEvery30('ALIGNED-2', '2025-06-02T10:00', '2025-06-02T12:00');
    const tariff = await flatTariff(1, [{ code: 'IMPORT_ENERGY', price: 2 }]);
    const bill = await cost(tariff, 'ALIGNED-2', '2025-06-02T10:10', '2025-06-02T12:50');
    // Starts 10:30, 11:00, 11:30, 12:00, 12:30; read to 11:30: 3 kWh x 2 = 6.00, 2 missing.
    expect(bill).toMatchObject({ import_kwh: 3, total: 6, missing_intervals: 2, complete: false });
    expect(bill.warnings).toEqual(['Missing readings: 2 of 5 intervals of 2025-06 have no reading']);
  });
});

describe('unpriced energy and months without readings', () => {
  it('a tariff without a DSO prices no SUMMER or WINTER item, and names the energy', async () => {
    await meterReadEvery30('NO-DSO-1', '2025-06-02T00:00', '2025-06-03T00:00');
    const tariff = await flatTariff(null, [
      { code: 'IMPORT_ENERGY', price: 2, season: 'SUMMER' },
      { code: 'IMPORT_ENERGY', price: 3, season: 'WINTER' },
    ]);
    const bill = await cost(tariff, 'NO-DSO-1', '2025-06-02T00:00', '2025-06-03T00:00');
    const warnings = ['No IMPORT_ENERGY item for no season: 48 kWh not priced'];
    expect(bill).toMatchObject({ lines: [], total: 0, missing_intervals: 0, complete: false, warnings });
    expect(bill.months).toMatchObject([{ month: '2025-06', complete: false, warnings }]);
  });

  it('a month without readings says so; the month with readings stays complete', async () => {
    await meterReadEvery30('TWO-MONTHS-1', '2025-05-31T00:00', '2025-06-01T00:00');
    const tariff = await flatTariff(1, [
      { code: 'IMPORT_ENERGY', price: 2 },
      { code: 'SERVICE', price: 10 },
      { code: 'WATER_CONSUMPTION', price: 29.7 },
    ]);
    const bill = await cost(tariff, 'TWO-MONTHS-1', '2025-05-31T00:00', '2025-06-02T00:00');
    const water = 'WATER_CONSUMPTION items are not priced: the item type has no meaning for an electricity meter';
    // May: 48 kWh x 2 = 96.00 + 1 day x 10 = 106.00; June: 1 day x 10 = 10.00 and no reading.
    expect(
      bill.months.map((m: Record<string, unknown>) => [
        m.month,
        m.subtotal,
        m.missing_intervals,
        m.complete,
        m.warnings,
      ]),
    ).toEqual([
      ['2025-05', 106, 0, false, [water]],
      ['2025-06', 10, 48, false, ['No readings in 2025-06', water]],
    ]);
    expect(bill).toMatchObject({ subtotal: 116, complete: false, warnings: [water, 'No readings in 2025-06'] });
  });
});
