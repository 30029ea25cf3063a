import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localLabels } from '../../../test/helpers/calendar-oracle.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest, insertMeter, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

/** Whole-hour, half-hour and 45-minute offsets, with and without daylight saving, both hemispheres. */
const ZONES = [
  'UTC',
  'Europe/London',
  'Europe/Berlin',
  'America/New_York',
  'America/St_Johns',
  'Africa/Johannesburg',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Adelaide',
  'Australia/Lord_Howe',
  'Australia/Sydney',
  'Pacific/Chatham',
];
/** Windows of 80 days holding the March and April, or the September to November, clock changes. */
const WINDOWS = ['2025-02-15T00:00:00.000Z', '2025-09-10T00:00:00.000Z'];
const SLOTS = (80 * 1440) / 15;

const reading = fc.record({ slot: fc.nat(SLOTS - 1), milli: fc.integer({ min: 1, max: 9_999 }) });
const scenario = fc.record({
  tz: fc.constantFrom(...ZONES),
  window: fc.constantFrom(...WINDOWS),
  readings: fc.uniqueArray(reading, { selector: (r) => r.slot, minLength: 1, maxLength: 300 }),
  startMinute: fc.oneof(
    fc.integer({ min: 0, max: 80 * 1440 }),
    fc.nat(80 * 96).map((q) => q * 15),
  ),
  minutes: fc.oneof(
    fc.integer({ min: 60, max: 70 * 1440 }),
    fc.integer({ min: 1, max: 70 }).map((d) => d * 1440),
  ),
});

interface Bucket {
  ts: string;
  label: string;
  import_kwh: number;
}

/** Thousandths of a kWh, exact for the sums of these readings. */
const milli = (kwh: number) => Math.round(kwh * 1000);

describe('calendar buckets', () => {
  it('put every reading in exactly one day, named as its local date, and the days of a month add up to the month', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ tz, window, readings, startMinute, minutes }) => {
        const meter = await insertMeter(t.db, org.accountId, { interval_minutes: 15 });
        const body = readings.map(({ slot, milli: m }) => ({ ts: at(window, slot * 15), import_kwh: m / 1000 }));
        await ingest(org.owner.client, org.accountId, meter.meter_sn, body);
        const start = at(window, startMinute);
        const end = at(start, minutes);
        const profile = async (group_by: string): Promise<Bucket[]> => {
          const res = await org.member.client.get(`${TIMESERIES}/energy-profile`, {
            account_id: org.accountId,
            meter_sn: meter.meter_sn,
            start,
            end,
            group_by,
            tz,
            fill: 'zero',
          });
          expect(res.status).toBe(200);
          return res.body.data;
        };
        const [days, months] = [await profile('day'), await profile('month')];

        // The buckets cover the range one after the other, each named once.
        expect(days[0]!.ts <= start).toBe(true);
        expect(new Set(days.map((d) => d.label)).size).toBe(days.length);
        days.slice(1).forEach((day, i) => {
          expect(day.ts > days[i]!.ts).toBe(true);
        });
        // Each reading lies in one bucket: the last that starts at or before it, named as PostgreSQL names its local date.
        const sums = new Map<string, number>();
        for (const r of await localLabels(t.db, meter.id, 'day', tz, start, end)) {
          const holder = days.filter((day) => day.ts <= r.ts).at(-1)!;
          expect(holder.label).toBe(r.label);
          sums.set(r.label, (sums.get(r.label) ?? 0) + milli(r.import_kwh));
        }
        expect(days.map((d) => milli(d.import_kwh))).toEqual(days.map((d) => sums.get(d.label) ?? 0));
        // The days of each month add up to the month.
        expect(months.map((m) => milli(m.import_kwh))).toEqual(
          months.map((m) =>
            days.filter((d) => d.label.startsWith(m.label)).reduce((total, d) => total + milli(d.import_kwh), 0),
          ),
        );
        expect(months.map((m) => m.label)).toEqual([...new Set(days.map((d) => d.label.slice(0, 7)))]);
      }),
      { numRuns: 30 },
    );
  }, 180_000);
});
