import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import {
  insertBuildingBlock,
  insertMeter,
  insertReadingsAt,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// A bill never hides a rand (extensions §12.1), for random readings, tariffs (with and without a
// DSO, seasonal and ALL_YEAR items, kVA items, items without meaning for electricity) and periods
// (to the millisecond, so both pricing paths), through the API: every imported kWh of each month is
// on a priced line of each kWh item type or named in a warning, every day on a line of each per-day
// type or named, and a bill (a month) is incomplete exactly when a warning says something is
// missing or unpriced.

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const SLOT_MS = 30 * MINUTE_MS;
const RANGE_START = Date.parse('2025-05-20T00:00:00+02:00');
const RANGE_MS = 20 * DAY_MS; // 20 May to 9 June: SUMMER, then WINTER in the DSO's calendar
const SEASONS = ['ALL_YEAR', 'SUMMER', 'WINTER', 'TRANSITION'] as const;

/** kWh items on imported energy, per-day items, and the rest: what a tariff may carry. */
const KWH_TYPES = ['IMPORT_ENERGY', 'LEGACY'];
const DAY_TYPES = ['SERVICE'];

interface ItemRow {
  code: string;
  price: number;
  season: string;
  demand_basis?: string;
}

const seasonal = (code: string, price: number) =>
  fc
    .subarray([...SEASONS], { maxLength: 3 })
    .map((seasons): ItemRow[] => seasons.map((season) => ({ code, price, season })));

const optional = (row: ItemRow) => fc.boolean().map((on) => (on ? [row] : []));

const tariffItems = fc
  .tuple(
    seasonal('IMPORT_ENERGY', 2.1611),
    seasonal('LEGACY', 0.2278),
    seasonal('SERVICE', 3.27),
    optional({ code: 'NETWORK_DEMAND', price: 23.51, season: 'ALL_YEAR' }),
    optional({ code: 'NETWORK_CAPACITY', price: 12.13, season: 'ALL_YEAR', demand_basis: 'NMD' }),
    optional({ code: 'WATER_CONSUMPTION', price: 29.7, season: 'ALL_YEAR' }),
    optional({ code: 'CARBON', price: 0.1, season: 'WINTER' }),
  )
  .map((groups) => groups.flat());

const slotValues = fc.record({
  import_kwh: fc.integer({ min: 0, max: 5_000_000 }).map((n) => n / 1_000_000),
  kvarh: fc.constantFrom(0, 0.5),
  kva: fc.integer({ min: 0, max: 90 }),
});

const scenario = fc.record({
  dsoId: fc.constantFrom(1, null),
  items: tariffItems,
  /** Which half hours of the range have a reading (most do), and their values. */
  slots: fc.array(fc.option(slotValues, { freq: 8 }), { minLength: RANGE_MS / SLOT_MS, maxLength: RANGE_MS / SLOT_MS }),
  startMs: fc.integer({ min: 0, max: RANGE_MS - HOUR_MS }),
  durationMs: fc.integer({ min: MINUTE_MS, max: RANGE_MS }),
  nmd: fc.option(fc.integer({ min: 0, max: 120 }), { nil: null }),
});

const UNPRICED = /^No (\w+) item for ([\w ]+): ([\d.e-]+) (\S+) not priced$/;
const SAYS_LACK = /not priced|missing|No readings in/i;

interface Line {
  item_type_code: string;
  quantity: number;
  unit: string;
}
interface Month {
  month: string;
  start: string;
  end: string;
  import_kwh: number;
  lines: Line[];
  complete: boolean;
  warnings: string[];
}

/** The quantity of a type on the month's lines plus the quantity its warnings name unpriced. */
function accountedFor(month: Month, code: string): number {
  const priced = month.lines.filter((line) => line.item_type_code === code).reduce((sum, l) => sum + l.quantity, 0);
  const named = month.warnings
    .map((warning) => UNPRICED.exec(warning))
    .filter((match) => match?.[1] === code)
    .reduce((sum, match) => sum + Number(match![3]), 0);
  return priced + named;
}

describe('a bill never hides a rand', () => {
  it('prices or names every kWh and day, and is incomplete exactly when a warning says what lacks', async () => {
    const blockId = await insertBuildingBlock(t.db, r.accountId);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(scenario, async ({ dsoId, items, slots, startMs, durationMs, nmd }) => {
        round += 1;
        const tariffId = await insertTariff(t.db, r.accountId);
        await t.db.query('UPDATE tariffs SET dso_id = $2 WHERE id = $1', [tariffId, dsoId]);
        for (const item of items) {
          await t.db.query(
            'INSERT INTO tariff_items (tariff_id, item_type_code, price, season, demand_basis) VALUES ($1, $2, $3, $4, $5)',
            [tariffId, item.code, item.price, item.season, item.demand_basis ?? null],
          );
        }
        const meterSn = `COMPLETE-${round}`;
        const meterId = await insertMeter(t.db, r.accountId, blockId, { meterSn });
        await t.db.query('UPDATE meters SET notified_max_demand_kva = $2 WHERE id = $1', [meterId, nmd]);
        const readings = slots.flatMap((values, i) => (values ? [{ ts: RANGE_START + i * SLOT_MS, ...values }] : []));
        await insertReadingsAt(t.db, meterId, readings);

        const start = RANGE_START + startMs;
        const end = Math.min(RANGE_START + RANGE_MS, start + durationMs);
        const res = await r.member.client.get(`/api/v1/tariffs/${tariffId}/cost`, {
          account_id: r.accountId,
          meter_sn: meterSn,
          start: new Date(start).toISOString(),
          end: new Date(end).toISOString(),
        });
        expect(res.status).toBe(200);
        const bill = res.body.data as Month & { months: Month[] };

        const kwhTypes = KWH_TYPES.filter((code) => items.some((item) => item.code === code));
        for (const month of bill.months) {
          // Every imported kWh: on a line of each kWh item type the tariff has, or named unpriced;
          // with none, named as IMPORT_ENERGY.
          for (const code of kwhTypes.length > 0 ? kwhTypes : ['IMPORT_ENERGY']) {
            expect(accountedFor(month, code)).toBeCloseTo(month.import_kwh, 5);
          }
          // Every day of the month's part on a line of each per-day type, or named unpriced.
          const days = (Date.parse(month.end) - Date.parse(month.start)) / DAY_MS;
          for (const code of DAY_TYPES.filter((type) => items.some((item) => item.code === type))) {
            expect(accountedFor(month, code)).toBeCloseTo(days, 5);
          }
          expect(month.complete).toBe(!month.warnings.some((warning) => SAYS_LACK.test(warning)));
        }
        expect(bill.warnings).toEqual([...new Set(bill.months.flatMap((month) => month.warnings))]);
        expect(bill.complete).toBe(bill.months.every((month) => month.complete));
        expect(bill.complete).toBe(!bill.warnings.some((warning) => SAYS_LACK.test(warning)));
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
