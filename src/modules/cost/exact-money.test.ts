import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertReadings,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

// One day in South African time (UTC+2), in March 2025.
const period = { start: '2025-03-02T22:00:00.000Z', end: '2025-03-03T22:00:00.000Z' };
const TOO_LARGE = (where: string) =>
  invalid(
    `${where}: the bill would exceed 9,999,999,999,999.99 in magnitude, beyond which amounts are not exact; price a shorter period or with lower prices`,
  );

/** A tariff of the largest energy price and a daily service charge; no tax. */
async function tariff(serviceCharge: string): Promise<number> {
  const id = await insertTariff(t.db, r.accountId);
  await t.db.query(
    `INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 1000000), ($1, 'SERVICE', $2)`,
    [id, serviceCharge],
  );
  return id;
}

/** A meter with 9,999,999 kWh on that day: nine readings of 1,000,000 kWh (the largest) and one of 999,999. */
async function meter(blockId: number): Promise<{ id: number; sn: string }> {
  const sn = `EXACT-${crypto.randomUUID()}`;
  const id = await insertMeter(t.db, r.accountId, blockId, { meterSn: sn });
  await insertReadings(t.db, id, period.start, 10, (i) => ({ import_kwh: i < 9 ? 1_000_000 : 999_999 }));
  return { id, sn };
}

async function tariffCost(tariffId: number, meterSn: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/tariffs/${tariffId}/cost`,
    query: { account_id: r.accountId, meter_sn: meterSn, ...period },
    headers: { authorization: `Bearer ${r.member.token}` },
  });
  return { status: res.statusCode, text: res.body, body: res.json() };
}

describe('bills stay exact to the cent', () => {
  it('answers the largest bill allowed, 9,999,999,999,999.99, to the cent', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const { sn } = await meter(block);
    const res = await tariffCost(await tariff('999999.99'), sn);
    expect(res.status, res.text).toBe(200);
    // 9,999,999 kWh x 1,000,000 = 9,999,999,000,000.00; one day x 999,999.99.
    expect(res.body.data.lines.map((line: { amount: number }) => line.amount)).toEqual([9_999_999_000_000, 999_999.99]);
    expect([res.body.data.subtotal, res.body.data.tax, res.body.data.total]).toEqual([
      9_999_999_999_999.99, 0, 9_999_999_999_999.99,
    ]);
    expect(res.body.data.months[0].total).toBe(9_999_999_999_999.99);
    expect(res.text).toContain('"total":9999999999999.99');
  });

  it('refuses with 400 naming the month a bill one cent larger', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const { sn } = await meter(block);
    const res = await tariffCost(await tariff('1000000'), sn);
    expect([res.status, res.body]).toEqual([400, TOO_LARGE('month 2025-03')]);
  });

  it('refuses with 400 naming the period a building whose sources add up beyond it', async () => {
    const block = await insertBuildingBlock(t.db, r.accountId);
    const [grid, solar] = [await meter(block), await meter(block)];
    const tariffId = await tariff('999999.99');
    await insertDashboardConfig(
      t.db,
      r.accountId,
      block,
      { grid: tariffId, solar: tariffId },
      {
        grid: grid.id,
        solar: solar.id,
      },
    );
    const res = await r.member.client.get(`/api/v1/building_blocks/${block}/energy-cost`, {
      account_id: r.accountId,
      ...period,
    });
    expect([res.status, res.body]).toEqual([400, TOO_LARGE(`period ${period.start} to ${period.end}`)]);
  });
});
