import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { insertMeter } from '../../test/helpers/timeseries-factories.ts';
import { seedDemoTariffs } from './demo-tariffs.ts';
import { seedDemoTransitions } from './demo-transition.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());

describe('demo tariffs', () => {
  it('clones a Homeflex time-of-use tariff for the grid, with a feed-in credit on exports', async () => {
    const r = await organizationWithRoles(t.app);
    const ids = await t.db.transaction((tx) => seedDemoTariffs(tx, r.accountId));
    const grid = (await r.owner.client.get(`/api/v1/tariffs/${ids.gridTariffId}`, { account_id: r.accountId })).body
      .data;
    expect(grid).toMatchObject({
      cloned_from: 6,
      tariff_type: 'TIME_OF_USE',
      tou_schedule_id: 3,
      account_id: r.accountId,
    });
    expect(grid.tariff_items).toHaveLength(13);
    expect(grid.tariff_items.at(-1)).toMatchObject({
      item_type_code: 'EXPORTED_ENERGY',
      price: 1.054,
      season: 'ALL_YEAR',
    });
  });

  it('follows 2025/26 with the tariff of each later year, the catalogue’s or, past it, its last prices re-dated', async () => {
    const r = await organizationWithRoles(t.app);
    const account_id = r.accountId;
    const meter = await insertMeter(t.db, account_id);
    const now = new Date('2027-06-15T08:00:00Z');
    const { first, years } = await t.db.transaction(async (tx) => {
      const first = await seedDemoTariffs(tx, account_id);
      await tx.query('UPDATE meters SET tariff_id = $1 WHERE id = $2', [first.gridTariffId, meter.id]);
      return { first, years: await seedDemoTransitions(tx, account_id, first.gridTariffId, r.owner.id, now) };
    });
    const chain: unknown[] = [];
    for (let id = first.gridTariffId; id !== years.nextTariffId; ) {
      const transition = (await r.owner.client.get(`/api/v1/tariffs/${id}/transitions`, { account_id })).body.data;
      const successor = (await r.owner.client.get(`/api/v1/tariffs/${transition.successor_id}`, { account_id })).body
        .data;
      chain.push([
        transition.effective_from,
        transition.applied_at !== null,
        successor.name,
        successor.cloned_from,
        successor.effective_from,
        successor.effective_to,
      ]);
      id = transition.successor_id;
    }
    expect(chain).toEqual([
      ['2026-03-31T22:00:00.000Z', true, 'Eskom Homeflex 1 2026/27 (illustrative)', 17, '2026-04-01', '2027-03-31'],
      ['2027-03-31T22:00:00.000Z', true, 'Eskom Homeflex 1 2027/28', 17, '2027-04-01', '2028-03-31'],
      ['2028-03-31T22:00:00.000Z', false, 'Eskom Homeflex 1 2028/29', 17, '2028-04-01', '2029-03-31'],
    ]);
    const current = await r.owner.client.get(`/api/v1/meters/${meter.id}`, { account_id });
    expect(current.body.data.tariff_id).toBe(years.currentTariffId);
    // June 2027 (no readings) is priced with the 2027/28 tariff, within its dates.
    const june = await r.owner.client.get(`/api/v1/tariffs/${years.currentTariffId}/cost`, {
      account_id,
      meter_sn: meter.meter_sn,
      start: '2027-06-01T00:00:00+02:00',
      end: '2027-07-01T00:00:00+02:00',
    });
    expect(june.status).toBe(200);
    expect(JSON.stringify(june.body)).not.toContain("outside the tariff's effective dates");
  });
});
