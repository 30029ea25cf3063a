import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest } from '../../../test/helpers/timeseries-factories.ts';

// Tenant recovery (extensions §12.4), hand-computed. Every meter reads each half hour of 1 June 2025
// (UTC) the same kWh; every tariff is in UTC, one IMPORT_ENERGY item, 15% tax.

const DAY = { start: '2025-06-01T00:00:00Z', end: '2025-06-02T00:00:00Z' };

let t: TestApp;
let org: OrganizationWithRoles;
/** 2.00/kWh for the landlord's supply, 1.00 for a cheap one, 2.50/kWh for tenants. */
let supplyTariff: number;
let cheapSupply: number;
let tenantTariff: number;

async function energyTariff(price: number) {
  const { id } = await createTariff(org.owner.client, org.accountId, { timezone: 'UTC', tax_rate: 15 });
  await createItems(org.owner.client, id, [{ item_type_code: 'IMPORT_ENERGY', price, season: 'ALL_YEAR' }]);
  return id as number;
}

/** A block under parentId whose config's grid is a new meter reading kwhPerHalfHour all day, on tariffId. */
async function meteredBlock(
  name: string,
  parentId: number | null,
  kwhPerHalfHour: number | null,
  tariffId: number | null,
) {
  const block = (await createBlock(org.owner.client, org.accountId, { name, parent_id: parentId })).id as number;
  const meter = await createMeter(org.owner.client, org.accountId, block);
  if (kwhPerHalfHour !== null) {
    const readings = Array.from({ length: 48 }, (_, i) => ({
      ts: new Date(Date.parse(DAY.start) + i * 1_800_000).toISOString(),
      import_kwh: kwhPerHalfHour,
    }));
    await ingest(org.owner.client, org.accountId, meter.meter_sn, readings);
  }
  const config = await org.owner.client.put(`/api/v1/building_blocks/${block}/config`, {
    account_id: org.accountId,
    grid_meter_id: meter.id,
    grid_tariff_id: tariffId,
  });
  expect(config.status, JSON.stringify(config.body)).toBe(200);
  return { block, meterSn: meter.meter_sn as string };
}

const recovery = (blockId: number, client = org.member.client) =>
  client.get(`/api/v1/building_blocks/${blockId}/recovery`, { account_id: org.accountId, ...DAY });

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  supplyTariff = await energyTariff(2);
  cheapSupply = await energyTariff(1);
  tenantTariff = await energyTariff(2.5);
});
afterAll(async () => t.close());

describe('GET /building_blocks/:id/recovery', () => {
  it('recovers the supply from tenants at two depths, an unpriced unit recovering nothing', async () => {
    // Supply: 48 x 5 kWh = 240 kWh x 2.00 = 480.00; tax 72.00; 552.00.
    const site = await meteredBlock('Mall', null, 5, supplyTariff);
    const building = (await createBlock(org.owner.client, org.accountId, { name: 'Wing', parent_id: site.block })).id;
    // Depth 2: 48 x 2 kWh = 96 kWh x 2.50 = 240.00; tax 36.00; 276.00.
    const deep = await meteredBlock('Shop 1', building, 2, tenantTariff);
    // Depth 1: 48 x 1 kWh = 48 kWh x 2.50 = 120.00; tax 18.00; 138.00.
    const near = await meteredBlock('Shop 2', site.block, 1, tenantTariff);
    // Depth 1, no tariff: not priced, recovers nothing.
    const unpriced = await meteredBlock('Shop 3', site.block, 0.5, null);
    // A descendant whose config has no grid meter is no tenant.
    const common = (await createBlock(org.owner.client, org.accountId, { name: 'Common', parent_id: site.block })).id;
    const commonMeter = await createMeter(org.owner.client, org.accountId, common);
    await org.owner.client.put(`/api/v1/building_blocks/${common}/config`, {
      account_id: org.accountId,
      load_meter_id: commonMeter.id,
    });

    const res = await recovery(site.block);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      building_block_id: site.block,
      start: '2025-06-01T00:00:00.000Z',
      end: '2025-06-02T00:00:00.000Z',
      currency: 'ZAR',
      supply: { meter_sn: site.meterSn, import_kwh: 240, total: 552 },
      tenants: [
        {
          building_block_id: deep.block,
          name: 'Shop 1',
          meter_sn: deep.meterSn,
          import_kwh: 96,
          total: 276,
          priced: true,
          reason: null,
        },
        {
          building_block_id: near.block,
          name: 'Shop 2',
          meter_sn: near.meterSn,
          import_kwh: 48,
          total: 138,
          priced: true,
          reason: null,
        },
        {
          building_block_id: unpriced.block,
          name: 'Shop 3',
          meter_sn: unpriced.meterSn,
          import_kwh: null,
          total: null,
          priced: false,
          reason: 'No tariff configured',
        },
      ],
      // 96 + 48 = 144 kWh; 276.00 + 138.00 = 414.00.
      recovered: { import_kwh: 144, total: 414 },
      // 240 - 144 = 96 kWh; 552.00 - 414.00 = 138.00; 96 / 240 = 40.00 %.
      unrecovered: { import_kwh: 96, total: 138, share_pct: 40 },
    });

    // The building in the middle has no dashboard config of its own: 404.
    const middle = await recovery(building);
    expect([middle.status, middle.body.error]).toEqual([404, 'Dashboard config not found']);
  });

  it('answers a negative unrecovered amount when the tenants are billed more than the supply costs', async () => {
    // Supply: 48 x 1 kWh = 48 kWh x 1.00 = 48.00; tax 7.20; 55.20.
    const site = await meteredBlock('Cheap site', null, 1, cheapSupply);
    // Tenant: 48 x 0.9 = 43.2 kWh x 2.50 = 108.00; tax 16.20; 124.20.
    const unit = await meteredBlock('Unit', site.block, 0.9, tenantTariff);
    const res = await recovery(site.block);
    expect(res.status).toBe(200);
    expect(
      res.body.data.tenants.map((x: { building_block_id: number; total: number }) => [x.building_block_id, x.total]),
    ).toEqual([[unit.block, 124.2]]);
    expect(res.body.data.supply).toEqual({ meter_sn: site.meterSn, import_kwh: 48, total: 55.2 });
    expect(res.body.data.recovered).toEqual({ import_kwh: 43.2, total: 124.2 });
    // 48 - 43.2 = 4.8 kWh; 55.20 - 124.20 = -69.00; 4.8 / 48 = 10.00 %.
    expect(res.body.data.unrecovered).toEqual({ import_kwh: 4.8, total: -69, share_pct: 10 });
  });

  it('gives share_pct null when the supply imported nothing', async () => {
    const site = await meteredBlock('Empty site', null, null, supplyTariff);
    const res = await recovery(site.block);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      supply: { import_kwh: 0, total: 0 },
      tenants: [],
      recovered: { import_kwh: 0, total: 0 },
      unrecovered: { import_kwh: 0, total: 0, share_pct: null },
    });
  });

  it('refuses a block it cannot recover for with the contract’s statuses', async () => {
    const bare = (await createBlock(org.owner.client, org.accountId)).id;
    const noGrid = (await createBlock(org.owner.client, org.accountId)).id;
    const solar = await createMeter(org.owner.client, org.accountId, noGrid);
    await org.owner.client.put(`/api/v1/building_blocks/${noGrid}/config`, {
      account_id: org.accountId,
      solar_meter_id: solar.id,
    });
    const untariffed = await meteredBlock('No tariff', null, 1, null);
    const priced = await meteredBlock('Priced', null, 1, supplyTariff);
    const cases: [number, number, string, typeof org.member.client?][] = [
      [bare, 404, 'Dashboard config not found'],
      [noGrid, 400, 'grid: The block has no grid meter'],
      [untariffed.block, 400, 'grid: The supply is not priced: No tariff configured'],
      [priced.block, 403, 'You are not a member of this organization', org.outsider.client],
      [999_999, 404, 'Building block not found'],
    ];
    for (const [block, status, error, client] of cases) {
      const res = await recovery(block, client);
      expect([res.status, res.body.error]).toEqual([status, error]);
    }
    const foreign = await org.outsider.client.get(`/api/v1/building_blocks/${priced.block}/recovery`, {
      account_id: org.otherAccountId,
      ...DAY,
    });
    expect([foreign.status, foreign.body.error]).toEqual([403, 'Building block belongs to another organization']);
  });
});
