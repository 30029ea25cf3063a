import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest } from '../../../test/helpers/timeseries-factories.ts';

// For random readings (values, gaps, kVA, kvarh), tariffs (flat, time-of-use with demand on the
// utilised capacity, Megaflex and Homeflex clones) and periods (to the minute, off the meter's grid
// too): the comparison's `current` is the building cost's bills of the source, and the candidate
// that is the current tariff (no change of it in the period) costs the same: difference 0.

const MEGAFLEX = 8;
const HOMEFLEX = 6;
const READINGS_FROM = Date.parse('2025-05-20T22:00:00Z');
const HALF_HOURS = 20 * 48;

let t: TestApp;
let org: OrganizationWithRoles;
let tariffs: number[];

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const flat = await createTariff(org.owner.client, org.accountId, { tax_rate: 15 });
  await createItems(org.owner.client, flat.id, [
    { item_type_code: 'IMPORT_ENERGY', price: 1.9876, season: 'ALL_YEAR' },
    { item_type_code: 'SERVICE', price: 12.34, season: 'ALL_YEAR' },
  ]);
  const [calendar] = await t.db.query<{ dso_id: number; tou_schedule_id: number }>(
    'SELECT dso_id, tou_schedule_id FROM tariffs WHERE id = $1',
    [MEGAFLEX],
  );
  const tou = await createTariff(org.owner.client, org.accountId, {
    tax_rate: 15,
    tariff_type: 'TIME_OF_USE',
    ...calendar,
  });
  await createItems(org.owner.client, tou.id, [
    { item_type_code: 'TOU_PEAK_ENERGY', price: 4.1234, season: 'ALL_YEAR' },
    { item_type_code: 'TOU_STANDARD_ENERGY', price: 1.8765, season: 'ALL_YEAR' },
    { item_type_code: 'TOU_OFF_PEAK_ENERGY', price: 0.9321, season: 'ALL_YEAR' },
    {
      item_type_code: 'NETWORK_CAPACITY',
      price: 26.45,
      season: 'ALL_YEAR',
      unit: 'kVA/month',
      demand_basis: 'UTILISED_CAPACITY',
    },
    {
      item_type_code: 'NETWORK_DEMAND',
      price: 52.3,
      season: 'ALL_YEAR',
      unit: 'kVA/month',
      demand_periods: ['PEAK', 'STANDARD'],
    },
  ]);
  const clone = async (id: number) => {
    const res = await org.owner.client.post(`/api/v1/tariffs/catalogue/${id}/clone`, { account_id: org.accountId });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  };
  tariffs = [flat.id, tou.id, await clone(MEGAFLEX), await clone(HOMEFLEX)];
});
afterAll(async () => t.close());

const reading = fc.record({
  // About one reading in ten missing.
  present: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
  import_kwh: fc.integer({ min: 0, max: 50_000 }).map((n) => n / 1000),
  kvarh: fc.integer({ min: 0, max: 20_000 }).map((n) => n / 1000),
  kva: fc.integer({ min: 0, max: 300_000 }).map((n) => n / 1000),
});

const scenario = fc.record({
  readings: fc.array(reading, { minLength: HALF_HOURS, maxLength: HALF_HOURS }),
  tariff: fc.nat({ max: 3 }),
  // Minutes from READINGS_FROM: a start and a length of the period, mostly on the meter's grid,
  // sometimes anywhere (partial hours at the edges, intervals across them).
  startMinute: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 5 * 48 }).map((n) => n * 30), weight: 3 },
    { arbitrary: fc.integer({ min: 0, max: 5 * 24 * 60 }), weight: 1 },
  ),
  lengthMinutes: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 14 * 48 }).map((n) => n * 30), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: 14 * 24 * 60 }), weight: 1 },
  ),
});

describe('tariff comparison against the building cost', () => {
  it('current is the building cost of the source; the current tariff as a candidate differs by 0', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ readings, tariff, startMinute, lengthMinutes }) => {
        const site = (await createBlock(org.owner.client, org.accountId)).id;
        const meter = await createMeter(org.owner.client, org.accountId, site, { notified_max_demand_kva: 120 });
        const body = readings.flatMap((r, i) =>
          r.present
            ? [
                {
                  ts: new Date(READINGS_FROM + i * 1_800_000).toISOString(),
                  import_kwh: r.import_kwh,
                  kvarh: r.kvarh,
                  kva: r.kva,
                },
              ]
            : [],
        );
        if (body.length > 0) await ingest(org.owner.client, org.accountId, meter.meter_sn, body);
        const config = await org.owner.client.put(`/api/v1/building_blocks/${site}/config`, {
          account_id: org.accountId,
          grid_meter_id: meter.id,
          grid_tariff_id: tariffs[tariff],
        });
        expect(config.status).toBe(200);
        const start = new Date(READINGS_FROM + startMinute * 60_000).toISOString();
        const end = new Date(READINGS_FROM + (startMinute + lengthMinutes) * 60_000).toISOString();
        const query = { account_id: org.accountId, start, end };
        const [cost, comparison] = await Promise.all([
          org.member.client.get(`/api/v1/building_blocks/${site}/energy-cost`, query),
          org.member.client.get(`/api/v1/building_blocks/${site}/tariff-comparison`, {
            ...query,
            tariff_ids: tariffs.join(','),
          }),
        ]);
        expect(cost.status).toBe(200);
        expect(comparison.status, JSON.stringify(comparison.body)).toBe(200);
        const [grid] = cost.body.data.sources;
        const [bill] = grid.bills;
        expect(grid.bills).toHaveLength(1);
        const { current, candidates } = comparison.body.data;
        expect(current).toEqual({
          total: grid.total,
          months: bill.months.map((m: { month: string; total: number }) => ({ month: m.month, total: m.total })),
          complete: bill.complete,
          warnings: bill.warnings,
        });
        const same = candidates.find((c: { tariff_id: number }) => c.tariff_id === tariffs[tariff]);
        expect(same).toMatchObject({ total: grid.total, difference: 0, complete: bill.complete });
        expect(same.warnings).toEqual(bill.warnings);
      }),
      { numRuns: 12 },
    );
  });
});
