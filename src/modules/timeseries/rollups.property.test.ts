import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import {
  asReported,
  at,
  energyFields,
  type FullReading,
  ingest,
  insertMeter,
  naiveBuckets,
  naiveSum,
  powerFields,
  type ReadingBody,
  rollupsAndRaw,
  storedReadings,
  TIMESERIES,
} from '../../../test/helpers/timeseries-factories.ts';
import type { ReadCache } from '../../db/read-cache.ts';
import { createVersionedResults } from '../../db/versioned-results.ts';
import { aggregatesRepository } from './aggregates.repository.ts';
import { energyPointsJson, energyValuesJson } from './energy-points.ts';
import { createMeterMonths, type MonthOfReadings } from './meter-months.ts';
import { profileBuckets } from './profile-buckets.ts';
import { ENERGY_FLOWS } from './totals.ts';

let t: TestApp;
/** Months of readings, each loaded anew (a version token of its own each time): nothing is kept between runs. */
const meterMonths = () =>
  createMeterMonths({
    db: t.db,
    cache: { version: () => ({}) } as unknown as ReadCache,
    months: createVersionedResults(1_000_000, (month: MonthOfReadings) => month.bytes),
  });
let org: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

// Two days before the end of a month: ranges cross into the next.
const BASE = '2026-05-30T00:00:00.000Z';
const DAYS = 4;
const SLOTS = (DAYS * 1440) / 15;

const milli = fc.integer({ min: 0, max: 20_000 }).map((n) => n / 1000);
const reading = fc.record(
  { slot: fc.nat(SLOTS - 1), import_kwh: milli, export_kwh: milli, kvarh: milli, power_kw: milli, kva: milli },
  // Absent power_kw or kva are derived by the service.
  { requiredKeys: ['slot', 'import_kwh'] },
);
/** Up to three batches for one 15-minute meter; later batches may replace earlier readings. */
const batches = fc.array(fc.uniqueArray(reading, { selector: (r) => r.slot, minLength: 1, maxLength: 150 }), {
  minLength: 1,
  maxLength: 3,
});

const minuteOffset = fc.oneof(
  fc.integer({ min: -120, max: DAYS * 1440 + 120 }),
  fc.integer({ min: -2, max: DAYS * 24 + 2 }).map((h) => h * 60),
  fc.integer({ min: -1, max: DAYS + 1 }).map((d) => d * 1440),
);
const range = fc
  .record({
    start: minuteOffset,
    seconds: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 59 })),
    length: fc.oneof(
      fc.integer({ min: 1, max: 3000 }),
      fc.integer({ min: 1, max: 60 }).map((h) => h * 60),
      fc.integer({ min: 1, max: 5 }).map((d) => d * 1440),
    ),
    bucket: fc.oneof(
      fc.integer({ min: 1, max: 1440 }),
      fc.constantFrom(60, 120, 180, 360, 720, 1440),
      fc.integer({ min: 1, max: 24 }).map((h) => h * 60),
    ),
  })
  .map(({ start, seconds, length, bucket }) => {
    const from = new Date(Date.parse(BASE) + start * 60_000 + seconds * 1000).toISOString();
    return { start: from, end: at(from, length), bucket };
  });

function body(slotReading: { slot: number } & Omit<ReadingBody, 'ts'>): ReadingBody {
  const { slot, ...values } = slotReading;
  return { ts: at(BASE, slot * 15), ...values };
}

describe('rollups give the same answers as raw readings', () => {
  it('for random readings, ranges and bucket sizes', async () => {
    await fc.assert(
      fc.asyncProperty(batches, fc.array(range, { minLength: 1, maxLength: 3 }), async (writes, ranges) => {
        const meter = await insertMeter(t.db, org.accountId, { interval_minutes: 15 });
        for (const batch of writes) await ingest(org.admin.client, org.accountId, meter.meter_sn, batch.map(body));
        const raw = (await storedReadings(t.db, meter.id)) as FullReading[];
        const rollups = await rollupsAndRaw(t.db, meter.id);
        expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
        expect(rollups.daily).toEqual(rollups.dailyFromRaw);

        for (const { start, end, bucket } of ranges) {
          const q = { account_id: org.accountId, meter_sn: meter.meter_sn, start, end, bucket_minutes: bucket };
          const get = async (endpoint: string) =>
            (await org.member.client.get(`${TIMESERIES}/${endpoint}`, q)).body.data;
          const buckets = naiveBuckets(raw, start, end, bucket);
          expect(await get('energy-sum')).toEqual(naiveSum(meter.meter_sn, raw, start, end));
          expect(await get('energy-profile')).toEqual(buckets.map(energyFields));
          expect(await get('power-profile')).toEqual(buckets.map(powerFields));
          // Energy profiles of minute buckets come from the months of readings kept in memory:
          // the database adds up the same JSON, byte for byte, with and without fill.
          const period = { start: new Date(start), end: new Date(end) };
          const profileOf = profileBuckets({ minutes: bucket }, period);
          const byDatabase = await aggregatesRepository.profile(
            t.db,
            ENERGY_FLOWS,
            org.accountId,
            [meter.id],
            period,
            profileOf.bucketing,
          );
          const byMonths = await meterMonths().energyValues(org.accountId, meter.id, period, bucket);
          const databaseValues = new Array<string | undefined>(profileOf.count);
          for (const row of byDatabase) databaseValues[row.index] = energyValuesJson(row.totals);
          for (const fill of [false, true]) {
            expect(energyPointsJson(profileOf, byMonths!, fill).json).toBe(
              energyPointsJson(profileOf, databaseValues, fill).json,
            );
          }
          const inRange = raw.filter(
            (r) => r.ts >= new Date(start).toISOString() && r.ts < new Date(end).toISOString(),
          );
          const last = inRange.at(-1);
          expect(await get('latest-power')).toEqual(
            last ? { ts: last.ts, power_kw: asReported(last.power_kw), kva: asReported(last.kva) } : null,
          );
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
