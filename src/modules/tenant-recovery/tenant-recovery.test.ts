import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { FORBIDDEN_NOT_MEMBER, notFound } from '../../../test/helpers/envelopes.ts';
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

/** A water tariff in UTC: one WATER_CONSUMPTION item at pricePerKl, 15 % tax. */
async function waterTariff(pricePerKl: number) {
  const { id } = await createTariff(org.owner.client, org.accountId, {
    meter_type: 'WATER',
    timezone: 'UTC',
    tax_rate: 15,
  });
  await createItems(org.owner.client, id, [
    { item_type_code: 'WATER_CONSUMPTION', price: pricePerKl, season: 'ALL_YEAR', unit: 'kL' },
  ]);
  return id as number;
}

/** Gives a block's config a water supply: a new hourly water meter using klPerHour all day, on tariffId. */
async function waterSupply(block: number, klPerHour: number, tariffId: number | null) {
  const meter = await createMeter(org.owner.client, org.accountId, block, {
    meter_type: 'WATER',
    interval_minutes: 60,
  });
  const readings = Array.from({ length: 24 }, (_, i) => ({
    ts: new Date(Date.parse(DAY.start) + i * 3_600_000).toISOString(),
    volume_kl: klPerHour,
  }));
  const stored = await org.owner.client.post('/api/v1/timeseries/water/readings', {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    readings,
  });
  expect(stored.status, JSON.stringify(stored.body)).toBe(200);
  const config = await org.owner.client.put(`/api/v1/building_blocks/${block}/config`, {
    account_id: org.accountId,
    water_supply_meter_id: meter.id,
    water_supply_tariff_id: tariffId,
  });
  expect(config.status, JSON.stringify(config.body)).toBe(200);
  return meter.meter_sn as string;
}

/** Every water meter's readings of the day: each hour of 1 June 2025. */
const WATER_ALL_DAY = { first_ts: '2025-06-01T00:00:00.000Z', last_ts: '2025-06-01T23:00:00.000Z', count: 24 };

const recovery = (blockId: number, client = org.member.client, extra: Record<string, unknown> = {}) =>
  client.get(`/api/v1/building_blocks/${blockId}/recovery`, { account_id: org.accountId, ...DAY, ...extra });

/** Every meter's readings of the day: each half hour of 1 June 2025. */
const READ_ALL_DAY = { first_ts: '2025-06-01T00:00:00.000Z', last_ts: '2025-06-01T23:30:00.000Z', count: 48 };

/** The one line of a bill on a one-item energy tariff. */
const energyLine = (quantity: number, unitPrice: number, amount: number) => ({
  item_type_code: 'IMPORT_ENERGY',
  season: 'ALL_YEAR',
  period: null,
  block_index: null,
  quantity,
  unit: 'kWh',
  unit_price: unitPrice,
  amount,
});

/** A priced tenant's fields without a reference tariff, its bill at 15 % tax. */
const pricedTenant = (kwh: number, unitPrice: number, subtotal: number, tax: number, total: number) => ({
  import_kwh: kwh,
  readings: READ_ALL_DAY,
  lines: [energyLine(kwh, unitPrice, subtotal)],
  subtotal,
  tax,
  total,
  rate_per_kwh: unitPrice,
  reference_total: null,
  over_recovery: null,
  priced: true,
  reason: null,
});

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
      source: 'grid',
      unit: 'kWh',
      currency: 'ZAR',
      reference_tariff_id: null,
      supply: { meter_sn: site.meterSn, import_kwh: 240, total: 552 },
      tenants: [
        {
          building_block_id: deep.block,
          name: 'Shop 1',
          meter_sn: deep.meterSn,
          ...pricedTenant(96, 2.5, 240, 36, 276),
        },
        {
          building_block_id: near.block,
          name: 'Shop 2',
          meter_sn: near.meterSn,
          ...pricedTenant(48, 2.5, 120, 18, 138),
        },
        {
          building_block_id: unpriced.block,
          name: 'Shop 3',
          meter_sn: unpriced.meterSn,
          // Metered though not priced: 48 x 0.5 kWh.
          import_kwh: 24,
          readings: READ_ALL_DAY,
          lines: [],
          subtotal: null,
          tax: null,
          total: null,
          rate_per_kwh: null,
          reference_total: null,
          over_recovery: null,
          priced: false,
          reason: 'No tariff configured',
        },
      ],
      // 96 + 48 = 144 kWh; 276.00 + 138.00 = 414.00.
      recovered: { import_kwh: 144, total: 414 },
      // 240 - 144 = 96 kWh, of which Shop 3's 24 unbilled and 72 common; 552.00 - 414.00 = 138.00;
      // 96 / 240 = 40.00 %.
      unrecovered: { import_kwh: 96, unbilled_kwh: 24, common_kwh: 72, total: 138, share_pct: 40 },
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
    expect(res.body.data.unrecovered).toEqual({
      import_kwh: 4.8,
      unbilled_kwh: 0,
      common_kwh: 4.8,
      total: -69,
      share_pct: 10,
    });
  });

  it('gives share_pct null when the supply imported nothing', async () => {
    const site = await meteredBlock('Empty site', null, null, supplyTariff);
    const res = await recovery(site.block);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      supply: { import_kwh: 0, total: 0 },
      tenants: [],
      recovered: { import_kwh: 0, total: 0 },
      unrecovered: { import_kwh: 0, unbilled_kwh: 0, common_kwh: 0, total: 0, share_pct: null },
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

  it('prices each tenant on a reference tariff and flags what is above it by more than 1 %', async () => {
    // Reference: the supply's tariff, 2.00/kWh. 48 kWh on it: 96.00 + 14.40 = 110.40, and 1 % above
    // it is 111.504.
    const site = await meteredBlock('Reference site', null, 5, supplyTariff);
    // 48 x 2.02 = 96.96 + 14.54 (14.544) = 111.50: not more than 1 % above 110.40.
    const atOnePct = await meteredBlock('At 1 %', site.block, 1, await energyTariff(2.02));
    // 48 x 2.03 = 97.44 + 14.62 (14.616) = 112.06: 112.06 - 110.40 = 1.66 over.
    const above = await meteredBlock('Above', site.block, 1, await energyTariff(2.03));
    // Unpriced, 24 kWh: 48.00 + 7.20 = 55.20 on the reference, nothing charged.
    const unbilled = await meteredBlock('Unbilled', site.block, 0.5, null);
    const res = await recovery(site.block, org.member.client, { reference_tariff_id: supplyTariff });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.reference_tariff_id).toBe(supplyTariff);
    const figures = res.body.data.tenants.map(
      (x: { building_block_id: number; total: number | null; reference_total: number; over_recovery: number }) => [
        x.building_block_id,
        x.total,
        x.reference_total,
        x.over_recovery,
      ],
    );
    expect(figures).toEqual([
      [atOnePct.block, 111.5, 110.4, 0],
      [above.block, 112.06, 110.4, 1.66],
      [unbilled.block, null, 55.2, 0],
    ]);
    const missing = await recovery(site.block, org.member.client, { reference_tariff_id: 999_999 });
    expect([missing.status, missing.body]).toEqual([404, notFound('Tariff')]);
  });
});

describe('GET /building_blocks/:id/recovery?source=water', () => {
  it("recovers the water supply from the tenants' water meters, in kL", async () => {
    const [supplyWater, tenantWater] = [await waterTariff(20), await waterTariff(25)];
    // The site has a grid too: its electricity tenant is no tenant of the water.
    const site = await meteredBlock('Water site', null, 5, supplyTariff);
    await meteredBlock('Grid unit', site.block, 1, tenantTariff);
    // Supply: 24 x 2 kL = 48 kL x 20.00 = 960.00; tax 144.00; 1104.00.
    const supplySn = await waterSupply(site.block, 2, supplyWater);
    // Tenant: 24 x 0.5 kL = 12 kL x 25.00 = 300.00; tax 45.00; 345.00.
    const flat = (await createBlock(org.owner.client, org.accountId, { name: 'Flat 1', parent_id: site.block })).id;
    const flatSn = await waterSupply(flat, 0.5, tenantWater);
    // No tariff: 24 x 0.25 = 6 kL metered, not priced.
    const shop = (await createBlock(org.owner.client, org.accountId, { name: 'Shop', parent_id: site.block })).id;
    const shopSn = await waterSupply(shop, 0.25, null);

    const res = await recovery(site.block, org.member.client, { source: 'water' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      building_block_id: site.block,
      start: '2025-06-01T00:00:00.000Z',
      end: '2025-06-02T00:00:00.000Z',
      source: 'water',
      unit: 'kL',
      currency: 'ZAR',
      reference_tariff_id: null,
      supply: { meter_sn: supplySn, import_kwh: 48, total: 1104 },
      tenants: [
        {
          building_block_id: flat,
          name: 'Flat 1',
          meter_sn: flatSn,
          import_kwh: 12,
          readings: WATER_ALL_DAY,
          lines: [{ ...energyLine(12, 25, 300), item_type_code: 'WATER_CONSUMPTION', unit: 'kL' }],
          subtotal: 300,
          tax: 45,
          total: 345,
          rate_per_kwh: 25,
          reference_total: null,
          over_recovery: null,
          priced: true,
          reason: null,
        },
        {
          building_block_id: shop,
          name: 'Shop',
          meter_sn: shopSn,
          import_kwh: 6,
          readings: WATER_ALL_DAY,
          lines: [],
          subtotal: null,
          tax: null,
          total: null,
          rate_per_kwh: null,
          reference_total: null,
          over_recovery: null,
          priced: false,
          reason: 'No tariff configured',
        },
      ],
      recovered: { import_kwh: 12, total: 345 },
      // 48 - 12 = 36 kL, of which the shop's 6 unbilled and 30 common; 1104.00 - 345.00 = 759.00;
      // 36 / 48 = 75.00 %.
      unrecovered: { import_kwh: 36, unbilled_kwh: 6, common_kwh: 30, total: 759, share_pct: 75 },
    });

    // The grid's recovery of the same site still counts its electricity tenant only.
    const grid = await recovery(site.block);
    expect(grid.status).toBe(200);
    expect(grid.body.data.tenants.map((x: { name: string }) => x.name)).toEqual(['Grid unit']);

    // The statements of the water: the unpriced shop's row in kL.
    const csv = await org.member.client.get(`/api/v1/building_blocks/${site.block}/recovery/statements`, {
      account_id: org.accountId,
      ...DAY,
      source: 'water',
      tenant_id: shop,
    });
    expect(csv.status).toBe(200);
    expect((csv.body as string).split('\r\n')[1]).toBe(
      `Shop,2025-06-01T00:00:00.000Z,2025-06-02T00:00:00.000Z,${shopSn},Not priced: No tariff configured,,,,6,kL,,`,
    );
  });

  it('refuses a block without a water supply meter, and a source it does not know', async () => {
    const site = await meteredBlock('Dry site', null, 1, supplyTariff);
    const dry = await recovery(site.block, org.member.client, { source: 'water' });
    expect([dry.status, dry.body.error]).toEqual([400, 'water: The block has no water supply meter']);
    const unknown = await recovery(site.block, org.member.client, { source: 'solar' });
    expect([unknown.status, unknown.body.message]).toEqual([400, 'Invalid query']);
    expect(unknown.body.error).toMatch(/^source: /);
  });
});

describe('GET /building_blocks/:id/recovery/statements', () => {
  const statements = (blockId: number, extra: Record<string, unknown> = {}) =>
    org.member.client.get(`/api/v1/building_blocks/${blockId}/recovery/statements`, {
      account_id: org.accountId,
      ...DAY,
      ...extra,
    });

  it("writes each tenant's lines, subtotal, VAT and total as CSV with a BOM, formula cells defused", async () => {
    const site = await meteredBlock('Statement site', null, 5, supplyTariff);
    const shop = await meteredBlock('=HYPERLINK("http://x","Shop")', site.block, 2, tenantTariff);
    const dark = await meteredBlock('Dark unit', site.block, 0.5, null);
    const res = await statements(site.block);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const period = '2025-06-01T00:00:00.000Z,2025-06-02T00:00:00.000Z';
    const shopCells = `"'=HYPERLINK(""http://x"",""Shop"")",${period},${shop.meterSn}`;
    expect(res.body).toBe(
      [
        '\uFEFFtenant,start,end,meter_sn,charge,season,tou_period,tier,quantity,unit,unit_price,amount',
        // 48 x 2 kWh = 96 kWh x 2.50 = 240.00; tax 36.00; 276.00.
        `${shopCells},IMPORT_ENERGY,ALL_YEAR,,,96,kWh,2.5,240`,
        `${shopCells},Subtotal,,,,,,,240`,
        `${shopCells},VAT,,,,,,,36`,
        `${shopCells},Total,,,,,,,276`,
        `Dark unit,${period},${dark.meterSn},Not priced: No tariff configured,,,,24,kWh,,`,
        '',
      ].join('\r\n'),
    );
    const one = await statements(site.block, { tenant_id: dark.block });
    expect(one.body).toBe(
      [
        '\uFEFFtenant,start,end,meter_sn,charge,season,tou_period,tier,quantity,unit,unit_price,amount',
        `Dark unit,${period},${dark.meterSn},Not priced: No tariff configured,,,,24,kWh,,`,
        '',
      ].join('\r\n'),
    );
    const notTenant = await statements(site.block, { tenant_id: site.block });
    expect([notTenant.status, notTenant.body]).toEqual([404, notFound('Tenant')]);
    const outsider = await org.outsider.client.get(`/api/v1/building_blocks/${site.block}/recovery/statements`, {
      account_id: org.accountId,
      ...DAY,
    });
    expect([outsider.status, outsider.body]).toEqual([403, FORBIDDEN_NOT_MEMBER]);
  });
});
