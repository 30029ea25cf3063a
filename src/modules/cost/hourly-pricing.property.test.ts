import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { eskomCalendar, HOMEFLEX_ENERGY, item, sast, tariff } from '../../../test/helpers/pricing-fixtures.ts';
import { insertBuildingBlock, insertMeter, insertReadingsAt } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import type { ReadCache } from '../../db/read-cache.ts';
import { type CostMeterRow, costRepository as repo } from './cost.repository.ts';
import {
  type BillingContext,
  demandFromRollups,
  type PricingTariff,
  planHourlyPricing,
  priceHourly,
  priceReadings,
  utilisationWindowStart,
} from './engine/index.ts';
import { groupHourlyRows } from './hourly-groups.ts';
import { createKeptMeterMonths, createMeterHours } from './meter-hours.ts';

// The bill priced from the hourly rollups in SQL, and from the months of rollups and readings kept
// in memory, equals, to the cent and in every field, the bill priced reading by reading, for random readings, intervals, tariffs and periods (to the millisecond:
// off the meter's grid, partial hours at the edges).

let t: TestApp;
let accountId: string;
/** A version token of its own at every lookup: the months are read anew for each scenario. */
const freshTokens = { version: () => ({}) } as unknown as ReadCache;
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

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const RANGE_START = sast('2025-05-20T00:00').getTime();
const RANGE_MS = 20 * 24 * HOUR_MS; // 20 May to 9 June: across the season change and a month boundary
const MONTH_START = sast('2025-06-01T00:00').getTime() - RANGE_START;
const INTERVALS = [5, 10, 15, 30, 60];

/** Millionths, as meters report them (at most 6 decimals). */
const micro = (max: number) => fc.integer({ min: 0, max: max * 1_000_000 }).map((n) => n / 1_000_000);

const slotValues = fc.record({
  import_kwh: micro(5),
  export_kwh: micro(2),
  kvarh: micro(3),
  kva: micro(90),
});

const scenario = fc.constantFrom(...INTERVALS).chain((intervalMinutes) => {
  const intervalMs = intervalMinutes * MINUTE_MS;
  const slotCount = RANGE_MS / intervalMs;
  return fc.record({
    intervalMinutes: fc.constant(intervalMinutes),
    tariff: fc.constantFrom(...TARIFFS),
    /** Which slots of the meter's grid in the range have a reading, and their values. */
    slots: fc.array(fc.option(slotValues, { freq: 3 }), { minLength: slotCount, maxLength: slotCount }),
    /** Readings of the months before, for UTILISED_CAPACITY. */
    earlierKva: fc.array(micro(150), { minLength: 3, maxLength: 3 }),
    /** From the range's start: on the meter's grid, anywhere to the millisecond, or in the hour before a month. */
    startMs: fc.oneof(
      fc.integer({ min: 0, max: (RANGE_MS - 2 * HOUR_MS) / intervalMs }).map((slot) => slot * intervalMs),
      fc.integer({ min: 0, max: RANGE_MS - 2 * HOUR_MS }),
      fc.integer({ min: MONTH_START - HOUR_MS, max: MONTH_START }),
    ),
    /** At least two hours (a whole hour in the period), to the millisecond or in whole hours. */
    durationMs: fc.oneof(
      fc.integer({ min: 2 * HOUR_MS, max: RANGE_MS }),
      fc.integer({ min: 2, max: RANGE_MS / HOUR_MS }).map((hours) => hours * HOUR_MS),
    ),
    nmd: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
  });
});

describe('pricing from hourly rollups', () => {
  it('gives the same bill as pricing reading by reading', async () => {
    const blockId = await insertBuildingBlock(t.db, accountId);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ intervalMinutes, tariff: pricingTariff, slots, earlierKva, ...period }) => {
        round += 1;
        const start = new Date(RANGE_START + period.startMs);
        const end = new Date(Math.min(RANGE_START + RANGE_MS, start.getTime() + period.durationMs));
        const context: BillingContext = {
          tariff: pricingTariff,
          calendar: eskomCalendar(),
          start,
          end,
          intervalMinutes,
          notifiedMaxDemandKva: period.nmd,
        };
        const plan = planHourlyPricing(context);
        expect(plan).not.toBeNull();
        if (!plan) return;
        const meterId = await insertMeter(t.db, accountId, blockId, { meterSn: `HOURLY-${round}`, intervalMinutes });
        const earlier = ['2024-12-10T12:00', '2025-02-03T08:00', '2025-04-15T18:00'].map((ts, index) => ({
          ts: sast(ts).getTime(),
          import_kwh: 1,
          kva: earlierKva[index]!,
        }));
        const inRange = slots.flatMap((values, index) =>
          values ? [{ ts: RANGE_START + index * intervalMinutes * MINUTE_MS, ...values }] : [],
        );
        await insertReadingsAt(t.db, meterId, [...earlier, ...inRange]);
        const aggregates = await repo.hourlyAggregates(t.db, accountId, meterId, plan);
        // Under 30 minutes a half hour's demand (a month's max_kva) is the mean of several readings.
        const halfHours = demandFromRollups(intervalMinutes)
          ? undefined
          : await repo.halfHourPeaks(t.db, accountId, meterId, plan, start);
        const edges = [
          ...(await repo.readings(t.db, accountId, meterId, start, plan.hoursStart)),
          ...(await repo.readings(t.db, accountId, meterId, plan.hoursEnd, end)),
        ];
        const windowStart = utilisationWindowStart(context);
        const fromReadings = priceReadings({
          ...context,
          readings: await repo.readings(t.db, accountId, meterId, start, end),
          earlierReadings: windowStart ? await repo.readings(t.db, accountId, meterId, windowStart, start) : [],
        });
        expect(priceHourly(context, plan, aggregates, edges, halfHours)).toEqual(fromReadings);
        // From the months of hourly rollups and readings kept in memory, as the cost service prices.
        const meter = { id: meterId, account_id: accountId } as CostMeterRow;
        const months = createMeterHours({ db: t.db, cache: freshTokens, ...createKeptMeterMonths(1_000_000) });
        const keptRows = await months.hourlyMonths(meter, plan.from, plan.hoursEnd);
        const keptEdges = [
          ...(await months.readings(meter, start, plan.hoursStart))!,
          ...(await months.readings(meter, plan.hoursEnd, end))!,
        ];
        expect(keptEdges).toEqual(edges);
        expect(priceHourly(context, plan, groupHourlyRows(plan, keptRows!), keptEdges, halfHours)).toEqual(
          fromReadings,
        );
      }),
      { numRuns: 60 },
    );
    // 60 scenarios, each a meter and its readings written and read back: far more than one request.
  }, 600_000);
});
