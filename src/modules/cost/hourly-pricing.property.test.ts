import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { eskomCalendar, HOMEFLEX_ENERGY, item, sast, tariff } from '../../../test/helpers/pricing-fixtures.ts';
import { insertBuildingBlock, insertMeter, insertReadingsAt } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { costRepository as repo } from './cost.repository.ts';
import {
  type BillingContext,
  type PricingTariff,
  planHourlyPricing,
  priceHourly,
  priceReadings,
  utilisationWindowStart,
} from './engine/index.ts';

// The bill priced from the hourly rollups in SQL equals, to the cent and in every field, the bill
// priced reading by reading, for random readings, tariffs and periods (partial hours at the edges).

let t: TestApp;
let accountId: string;
beforeAll(async () => {
  t = await startTestApp();
  accountId = (await organizationWithRoles(t.app)).accountId;
});
afterAll(async () => t.close());

const TARIFFS: PricingTariff[] = [
  tariff([
    item('IMPORT_ENERGY', '2.1611', 'SUMMER'),
    item('IMPORT_ENERGY', '2.7472', 'WINTER'),
    item('LEGACY', '0.2278'),
  ]),
  tariff(
    [
      ...HOMEFLEX_ENERGY,
      item('EXPORTED_ENERGY', '0.8537'),
      { ...item('NETWORK_DEMAND', '23.51', 'ALL_YEAR', 'kVA/month'), demand_periods: ['PEAK', 'STANDARD'] },
      { ...item('NETWORK_CAPACITY', '12.13', 'ALL_YEAR', 'kVA/month'), demand_basis: 'UTILISED_CAPACITY' },
      { ...item('EXCESS_NETWORK_CAPACITY', '31.7', 'ALL_YEAR', 'kVA/month'), demand_basis: 'EXCESS' },
      { ...item('REACTIVE_ENERGY', '0.1532', 'WINTER', 'kvarh'), free_ratio: '0.3' },
      item('REACTIVE_ENERGY', 0, 'SUMMER', 'kvarh'),
      item('SERVICE', '3.27', 'ALL_YEAR', 'day'),
      item('ADMINISTRATION', 200, 'ALL_YEAR', 'month'),
    ],
    { tariff_type: 'TIME_OF_USE', tax_rate: 15 },
  ),
  tariff(
    [
      item('IMPORT_ENERGY', 0, 'ALL_YEAR', 'kWh', [
        { block_index: 0, upper_limit: 35, unit_price_cents: 190.28 },
        { block_index: 1, upper_limit: 600, unit_price_cents: 232.31 },
        { block_index: 2, upper_limit: null, unit_price_cents: 394.86 },
      ]),
    ],
    { tariff_type: 'BLOCK', tax_rate: 15 },
  ),
];

const HOUR_MS = 3_600_000;
const RANGE_START = sast('2025-05-20T00:00').getTime();
const RANGE_HOURS = 20 * 24; // 20 May to 9 June: across the season change and a month boundary

/** Millionths, as meters report them (at most 6 decimals). */
const micro = (max: number) => fc.integer({ min: 0, max: max * 1_000_000 }).map((n) => n / 1_000_000);

const slotValues = fc.record({
  import_kwh: micro(5),
  export_kwh: micro(2),
  kvarh: micro(3),
  kva: micro(90),
});

const scenario = fc.record({
  tariff: fc.constantFrom(...TARIFFS),
  /** Which half-hour slots of the range have a reading, and their values. */
  slots: fc.array(fc.option(slotValues, { freq: 3 }), { minLength: RANGE_HOURS * 2, maxLength: RANGE_HOURS * 2 }),
  /** Readings of the months before, for UTILISED_CAPACITY. */
  earlierKva: fc.array(micro(150), { minLength: 3, maxLength: 3 }),
  /** A start on the meter's half-hour grid, an end at any minute: partial hours at both edges. */
  fromSlot: fc.integer({ min: 0, max: RANGE_HOURS * 2 - 6 }),
  minutes: fc.integer({ min: 120, max: RANGE_HOURS * 60 }),
  nmd: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
});

describe('pricing from hourly rollups', () => {
  it('gives the same bill as pricing reading by reading', async () => {
    const blockId = await insertBuildingBlock(t.db, accountId);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ tariff: pricingTariff, slots, earlierKva, fromSlot, minutes, nmd }) => {
        round += 1;
        const meterId = await insertMeter(t.db, accountId, blockId, { meterSn: `HOURLY-${round}` });
        const earlier = ['2024-12-10T12:00', '2025-02-03T08:00', '2025-04-15T18:00'].map((ts, index) => ({
          ts: sast(ts).getTime(),
          import_kwh: 1,
          kva: earlierKva[index]!,
        }));
        const inRange = slots.flatMap((values, index) =>
          values ? [{ ts: RANGE_START + index * 1_800_000, ...values }] : [],
        );
        await insertReadingsAt(t.db, meterId, [...earlier, ...inRange]);
        const start = new Date(RANGE_START + fromSlot * 1_800_000);
        const end = new Date(Math.min(RANGE_START + RANGE_HOURS * HOUR_MS, start.getTime() + minutes * 60_000));
        const context: BillingContext = {
          tariff: pricingTariff,
          calendar: eskomCalendar(),
          start,
          end,
          intervalMinutes: 30,
          notifiedMaxDemandKva: nmd,
        };
        const plan = planHourlyPricing(context);
        expect(plan).not.toBeNull();
        const aggregates = await repo.hourlyAggregates(t.db, accountId, meterId, plan!);
        const edges = [
          ...(await repo.readings(t.db, accountId, meterId, start, plan!.hoursStart)),
          ...(await repo.readings(t.db, accountId, meterId, plan!.hoursEnd, end)),
        ];
        const windowStart = utilisationWindowStart(context);
        const fromReadings = priceReadings({
          ...context,
          readings: await repo.readings(t.db, accountId, meterId, start, end),
          earlierReadings: windowStart ? await repo.readings(t.db, accountId, meterId, windowStart, start) : [],
        });
        expect(priceHourly(context, plan!, aggregates, edges)).toEqual(fromReadings);
      }),
      { numRuns: 25 },
    );
  });
});
