import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { insertBuildingBlock, insertMeter, insertReadingsAt } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// Catalogue tariffs with their real features priced through the API (extensions §11.5, §11.6).

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const MEGAFLEX = 8;
const HOMEFLEX = 6;

/** A wall-clock time in Johannesburg (UTC+2). */
const sast = (local: string) => Date.parse(`${local}:00+02:00`);

async function meterWithNmd(meterSn: string, nmd: number | null) {
  const block = await insertBuildingBlock(t.db, r.accountId);
  const meterId = await insertMeter(t.db, r.accountId, block, { meterSn });
  const res = await r.owner.client.put(`/api/v1/meters/${meterId}`, {
    account_id: r.accountId,
    notified_max_demand_kva: nmd,
  });
  expect(res.status).toBe(200);
  return meterId;
}

const lineOf = (
  item_type_code: string,
  season: string,
  period: string | null,
  quantity: number,
  unit: string,
  unit_price: number,
  amount: number,
) => ({ item_type_code, season, period, block_index: null, quantity, unit, unit_price, amount });

describe('Megaflex-style day in June', () => {
  it('charges demand on its bases, reactive energy above the free ratio and excess above the NMD', async () => {
    const meterId = await meterWithNmd('MEGA-1', 100);
    // Monday 2 June 2025, high-demand season weekday.
    await insertReadingsAt(t.db, meterId, [
      { ts: sast('2025-06-02T02:00'), import_kwh: 100, kva: 200 }, // OFF_PEAK
      { ts: sast('2025-06-02T07:00'), import_kwh: 50, kvarh: 60, kva: 110 }, // PEAK
      { ts: sast('2025-06-02T12:00'), import_kwh: 40, kvarh: 20, kva: 90 }, // STANDARD
    ]);
    const res = await r.member.client.get(`/api/v1/tariffs/${MEGAFLEX}/cost`, {
      account_id: r.accountId,
      meter_sn: 'MEGA-1',
      start: '2025-06-02T00:00:00+02:00',
      end: '2025-06-03T00:00:00+02:00',
    });
    expect(res.status).toBe(200);
    // One day of June's 30: kVA/month items are charged on their kVA x 1/30.
    expect(res.body.data.lines).toEqual([
      lineOf('TOU_PEAK_ENERGY', 'WINTER', 'PEAK', 50, 'kWh', 5.8721, 293.61), // 293.605
      lineOf('TOU_STANDARD_ENERGY', 'WINTER', 'STANDARD', 40, 'kWh', 1.7795, 71.18),
      lineOf('TOU_OFF_PEAK_ENERGY', 'WINTER', 'OFF_PEAK', 100, 'kWh', 0.9672, 96.72),
      // Month max 200 kVA (the off-peak spike counts: all periods): 13.62 x 200/30 = 90.80.
      lineOf('TRANSMISSION_NETWORK', 'ALL_YEAR', null, 6.666667, 'kVA', 13.62, 90.8),
      // Utilised capacity: max(NMD 100, 200) = 200: 26.45 x 200/30 = 176.333 -> 176.33.
      lineOf('NETWORK_CAPACITY', 'ALL_YEAR', null, 6.666667, 'kVA', 26.45, 176.33),
      // Peak and standard half hours only: max(110, 90) = 110, the 200 off-peak ignored: 52.30 x 110/30 = 191.767 -> 191.77.
      lineOf('NETWORK_DEMAND', 'ALL_YEAR', null, 3.666667, 'kVA', 52.3, 191.77),
      lineOf('URBAN_LV_SUBSIDY', 'ALL_YEAR', null, 6.666667, 'kVA', 21.14, 140.93), // 140.933
      lineOf('GENERATION_CAPACITY', 'ALL_YEAR', null, 6.666667, 'kVA', 3.85, 25.67), // 25.667
      lineOf('ANCILLARY_SERVICE', 'ALL_YEAR', null, 190, 'kWh', 0.0045, 0.86), // 0.855
      lineOf('ELECTRIFICATION_AND_RURAL_SUBSIDY', 'ALL_YEAR', null, 190, 'kWh', 0.0712, 13.53), // 13.528
      lineOf('AFFORDABILITY', 'ALL_YEAR', null, 190, 'kWh', 0.0489, 9.29), // 9.291
      lineOf('LEGACY', 'ALL_YEAR', null, 190, 'kWh', 0.2278, 43.28), // 43.282
      // 80 kvarh - 0.3 x 190 kWh = 23 kvarh x 0.175 = 4.025 -> 4.03.
      lineOf('REACTIVE_ENERGY', 'WINTER', null, 23, 'kvarh', 0.175, 4.03),
      lineOf('SERVICE', 'ALL_YEAR', null, 1, 'day', 132.96, 132.96),
      lineOf('ADMINISTRATION', 'ALL_YEAR', null, 1, 'day', 31.54, 31.54),
      // 200 - NMD 100 = 100 kVA: 52.90 x 100/30 = 176.333 -> 176.33.
      lineOf('EXCESS_NETWORK_CAPACITY', 'ALL_YEAR', null, 3.333333, 'kVA', 52.9, 176.33),
    ]);
    // Subtotal 1,498.83; tax 15% = 224.8245 -> 224.82; total 1,723.65.
    expect(res.body.data).toMatchObject({ subtotal: 1498.83, tax: 224.82, total: 1723.65, max_kva: 200 });
    expect(res.body.data.months).toHaveLength(1);
    // chargeable_kva is the network demand's 110 (peak and standard), not the transmission charge's 200 (§12.1).
    expect(res.body.data.months[0]).toMatchObject({
      month: '2025-06',
      max_kva: 200,
      chargeable_kva: 110,
      demand: { max_kva: 200, chargeable_kva: 110, utilised_kva: 200, nmd_kva: 100, excess_kva: 100 },
      complete: false,
      warnings: ['Missing readings: 45 of 48 intervals of 2025-06 have no reading'],
    });
    expect(res.body.data.complete).toBe(false);
    // Each month names its own missing readings (§12.1).
    expect(res.body.data.warnings).toEqual(['Missing readings: 45 of 48 intervals of 2025-06 have no reading']);
  });

  it('warns when the meter has no NMD and counts it as 0', async () => {
    const meterId = await meterWithNmd('MEGA-2', null);
    // Installed before the day, which has no readings.
    await t.db.query(`UPDATE meters SET installed_on = '2025-06-01' WHERE id = $1`, [meterId]);
    const res = await r.member.client.get(`/api/v1/tariffs/${MEGAFLEX}/cost`, {
      account_id: r.accountId,
      meter_sn: 'MEGA-2',
      start: '2025-06-02T00:00:00+02:00',
      end: '2025-06-03T00:00:00+02:00',
    });
    expect(res.status).toBe(200);
    // A month without readings says so; kVA charged on the 0 kVA of no readings is not a further warning (§12.1).
    expect(res.body.data.warnings).toEqual([
      'No readings in 2025-06',
      "NETWORK_CAPACITY (UTILISED_CAPACITY) needs the meter's notified maximum demand, which is missing: counted as 0 kVA",
      "EXCESS_NETWORK_CAPACITY (EXCESS) needs the meter's notified maximum demand, which is missing: counted as 0 kVA",
    ]);
    expect(res.body.data.complete).toBe(false);
  });
});

describe('Homeflex 1', () => {
  it("prices its network demand per kWh and capacity per day, and warns outside the tariff's dates", async () => {
    await meterWithNmd('HOME-1', null);
    const meterId = (await t.db.query<{ id: number }>(`SELECT id FROM meters WHERE meter_sn = 'HOME-1'`))[0]!.id;
    await insertReadingsAt(t.db, meterId, [{ ts: sast('2025-10-06T12:00'), import_kwh: 10 }]);
    const query = { account_id: r.accountId, meter_sn: 'HOME-1' };
    const inside = await r.member.client.get(`/api/v1/tariffs/${HOMEFLEX}/cost`, {
      ...query,
      start: '2025-10-06T00:00:00+02:00',
      end: '2025-10-07T00:00:00+02:00',
    });
    expect(inside.status).toBe(200);
    const codes = ['NETWORK_DEMAND', 'NETWORK_CAPACITY', 'GENERATION_CAPACITY'];
    const network = inside.body.data.lines.filter((line: { item_type_code: string }) =>
      codes.includes(line.item_type_code),
    );
    // 10 kWh x 0.2637 = 2.637 -> 2.64; 1 day x 12.13; 1 day x 0.72.
    expect(network).toEqual([
      lineOf('NETWORK_DEMAND', 'ALL_YEAR', null, 10, 'kWh', 0.2637, 2.64),
      lineOf('NETWORK_CAPACITY', 'ALL_YEAR', null, 1, 'day', 12.13, 12.13),
      lineOf('GENERATION_CAPACITY', 'ALL_YEAR', null, 1, 'day', 0.72, 0.72),
    ]);
    // Each month names its own missing readings (§12.1).
    expect(inside.body.data.warnings).toEqual(['Missing readings: 47 of 48 intervals of 2025-10 have no reading']);

    // Homeflex 2025/26 is effective to 2026-03-31: October 2026 is priced, and says so.
    const after = await r.member.client.get(`/api/v1/tariffs/${HOMEFLEX}/cost`, {
      ...query,
      start: '2026-10-01T00:00:00+02:00',
      end: '2026-10-02T00:00:00+02:00',
    });
    expect(after.status).toBe(200);
    expect(after.body.data.warnings).toContain(
      "The period is outside the tariff's effective dates (2025-04-01 to 2026-03-31)",
    );
  });
});
