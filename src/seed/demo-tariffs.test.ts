import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { seedDemoTariffs } from './demo-tariffs.ts';

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
});
