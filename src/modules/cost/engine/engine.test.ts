import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  blockLine,
  eskomCalendar,
  HOMEFLEX_ENERGY,
  HOUR_MS,
  input,
  item,
  line,
  reading,
  rules,
  SAST,
  SEASONS_ONLY,
  sast,
  tariff,
  touLine,
} from '../../../../test/helpers/pricing-fixtures.ts';
import { utcOffsetMs } from '../../../lib/time-zone.ts';
import { createDayDescriber, seasonShares } from './calendar.ts';
import { priceReadings } from './index.ts';
import { quantityOf } from './line-book.ts';
import { type Dec, ZERO } from './money.ts';
import { collectCharges } from './pricing.ts';
import type { Bill, BillLine, PricingCalendar, PricingInput, PricingTariff, Reading } from './types.ts';
import { measureReadings } from './usage.ts';

interface Case {
  name: string;
  input: PricingInput;
  lines: BillLine[];
  subtotal: number;
  tax: number;
  total: number;
  /** Further bill fields to check; approximate is expected false unless given. */
  also?: Partial<Bill>;
}

const cases: Case[] = [
  {
    // 1.2 + 0.8 + 2.0 = 4 kWh; 4 x 2.50 = 10.00. Three 30-minute slots, all read.
    name: 'FLAT energy',
    input: input(
      tariff([item('IMPORT_ENERGY', '2.50')]),
      SEASONS_ONLY,
      [
        reading(sast('2025-03-03T10:00'), 1.2),
        reading(sast('2025-03-03T10:30'), 0.8),
        reading(sast('2025-03-03T11:00'), 2.0),
      ],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T11:30'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 4, 2.5, 10)],
    subtotal: 10,
    tax: 0,
    total: 10,
    also: {
      tariff_id: 7,
      currency: 'ZAR',
      import_kwh: 4,
      export_kwh: 0,
      kvarh: 0,
      max_kva: 0,
      tax_rate: 0,
      missing_intervals: 0,
    },
  },
  {
    // 10 + 2.5 = 12.5 kWh x 2.1611 = 27.01375 -> 27.01; tax 27.01 x 15 / 100 = 4.0515 -> 4.05; total 31.06.
    name: 'FLAT energy with 15% tax',
    input: input(
      tariff([item('IMPORT_ENERGY', '2.1611')], { tax_rate: '15' }),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 10), reading(sast('2025-03-03T10:30'), 2.5)],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T11:00'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 12.5, 2.1611, 27.01)],
    subtotal: 27.01,
    tax: 4.05,
    total: 31.06,
    also: { tax_rate: 15 },
  },
  {
    // Tuesday 4 March 2025, low-demand season (SUMMER):
    // 06:30 standard 1 kWh, 08:00 peak 2 kWh, 12:00 standard 3 kWh, 23:00 off-peak 4 kWh.
    // peak 2 x 3.2928 = 6.5856 -> 6.59; standard 4 x 2.049 = 8.196 -> 8.20; off-peak 4 x 1.5926 = 6.3704 -> 6.37.
    // subtotal 21.16; tax 15% = 3.174 -> 3.17; total 24.33.
    name: 'TOU weekday peak, standard and off-peak in the low season',
    input: input(
      tariff(HOMEFLEX_ENERGY, { tariff_type: 'TIME_OF_USE', tax_rate: 15 }),
      eskomCalendar(),
      [
        reading(sast('2025-03-04T06:30'), 1),
        reading(sast('2025-03-04T08:00'), 2),
        reading(sast('2025-03-04T12:00'), 3),
        reading(sast('2025-03-04T23:00'), 4),
      ],
      sast('2025-03-04T00:00'),
      sast('2025-03-05T00:00'),
    ),
    lines: [
      touLine('PEAK', 'SUMMER', 2, 3.2928, 6.59),
      touLine('STANDARD', 'SUMMER', 4, 2.049, 8.2),
      touLine('OFF_PEAK', 'SUMMER', 4, 1.5926, 6.37),
    ],
    subtotal: 21.16,
    tax: 3.17,
    total: 24.33,
    also: { missing_intervals: 44 },
  },
  {
    // Monday 31 Aug 2026 is high season, Tuesday 1 Sep low season; same clock times, other periods:
    // 31 Aug 08:30 standard 1.5 kWh, 17:30 peak 2 kWh; 1 Sep 08:30 peak 3 kWh, 17:30 standard 2.5 kWh.
    // WINTER peak 2 x 7.0697 = 14.1394 -> 14.14; WINTER standard 1.5 x 2.1631 = 3.24465 -> 3.24;
    // SUMMER peak 3 x 3.2928 = 9.8784 -> 9.88; SUMMER standard 2.5 x 2.049 = 5.1225 -> 5.12.
    // subtotal 14.14 + 3.24 + 9.88 + 5.12 = 32.38.
    name: 'TOU across the 31 Aug -> 1 Sep season change',
    input: input(
      tariff(HOMEFLEX_ENERGY, { tariff_type: 'TIME_OF_USE' }),
      eskomCalendar(),
      [
        reading(sast('2026-08-31T08:30'), 1.5),
        reading(sast('2026-08-31T17:30'), 2),
        reading(sast('2026-09-01T08:30'), 3),
        reading(sast('2026-09-01T17:30'), 2.5),
      ],
      sast('2026-08-31T00:00'),
      sast('2026-09-02T00:00'),
    ),
    lines: [
      touLine('PEAK', 'WINTER', 2, 7.0697, 14.14),
      touLine('STANDARD', 'WINTER', 1.5, 2.1631, 3.24),
      touLine('PEAK', 'SUMMER', 3, 3.2928, 9.88),
      touLine('STANDARD', 'SUMMER', 2.5, 2.049, 5.12),
    ],
    subtotal: 32.38,
    tax: 0,
    total: 32.38,
  },
  {
    // Good Friday 18 Apr 2025, charged as Sunday: 08:00 (a weekday peak) is Sunday off-peak, 2 kWh;
    // 18:30 is Sunday standard (18-20), 1 kWh.
    // standard 1 x 2.049 = 2.049 -> 2.05; off-peak 2 x 1.5926 = 3.1852 -> 3.19; subtotal 5.24.
    name: 'public holiday with a SUNDAY override',
    input: input(
      tariff(HOMEFLEX_ENERGY, { tariff_type: 'TIME_OF_USE' }),
      eskomCalendar([{ on_date: '2025-04-18', day_type_override: 'SUNDAY' }]),
      [reading(sast('2025-04-18T08:00'), 2), reading(sast('2025-04-18T18:30'), 1)],
      sast('2025-04-18T00:00'),
      sast('2025-04-19T00:00'),
    ),
    lines: [touLine('STANDARD', 'SUMMER', 1, 2.049, 2.05), touLine('OFF_PEAK', 'SUMMER', 2, 1.5926, 3.19)],
    subtotal: 5.24,
    tax: 0,
    total: 5.24,
  },
  {
    // Human Rights Day, Friday 21 Mar 2025, no override: holiday_default SATURDAY.
    // 08:00 Saturday standard 2 kWh, 13:00 Saturday off-peak 1 kWh, 18:30 Saturday standard 1 kWh.
    // standard 3 x 2.049 = 6.147 -> 6.15; off-peak 1 x 1.5926 -> 1.59; subtotal 7.74.
    name: 'public holiday without override uses holiday_default SATURDAY',
    input: input(
      tariff(HOMEFLEX_ENERGY, { tariff_type: 'TIME_OF_USE' }),
      eskomCalendar([{ on_date: '2025-03-21', day_type_override: null }]),
      [
        reading(sast('2025-03-21T08:00'), 2),
        reading(sast('2025-03-21T13:00'), 1),
        reading(sast('2025-03-21T18:30'), 1),
      ],
      sast('2025-03-21T00:00'),
      sast('2025-03-22T00:00'),
    ),
    lines: [touLine('STANDARD', 'SUMMER', 3, 2.049, 6.15), touLine('OFF_PEAK', 'SUMMER', 1, 1.5926, 1.59)],
    subtotal: 7.74,
    tax: 0,
    total: 7.74,
  },
  {
    // New Year's Day on Sunday 1 Jan 2023 (charged as Sunday), Monday 2 Jan observed, charged as Saturday.
    // Sun 07:00 off-peak 1 kWh; Sun 18:30 standard 1 kWh; Mon 07:00 Saturday standard 2 kWh (a weekday
    // peak otherwise); Mon 13:00 Saturday off-peak 1 kWh (weekday standard otherwise).
    // SUMMER standard 3 x 2.049 = 6.147 -> 6.15; SUMMER off-peak 2 x 1.5926 = 3.1852 -> 3.19; subtotal 9.34.
    name: 'Sunday holiday with its Monday observed as Saturday',
    input: input(
      tariff(HOMEFLEX_ENERGY, { tariff_type: 'TIME_OF_USE' }),
      eskomCalendar([
        { on_date: '2023-01-01', day_type_override: 'SUNDAY' },
        { on_date: '2023-01-02', day_type_override: 'SATURDAY' },
      ]),
      [
        reading(sast('2023-01-01T07:00'), 1),
        reading(sast('2023-01-01T18:30'), 1),
        reading(sast('2023-01-02T07:00'), 2),
        reading(sast('2023-01-02T13:00'), 1),
      ],
      sast('2023-01-01T00:00'),
      sast('2023-01-03T00:00'),
    ),
    lines: [touLine('STANDARD', 'SUMMER', 3, 2.049, 6.15), touLine('OFF_PEAK', 'SUMMER', 2, 1.5926, 3.19)],
    subtotal: 9.34,
    tax: 0,
    total: 9.34,
  },
  {
    // Tiers 0-350 @ 210c, 350-500 @ 241c, above @ 265c (given out of order); the item's price is ignored.
    // 300 kWh -> tier 0 300; 150 kWh -> tier 0 50, tier 1 100; 100 kWh -> tier 1 50, tier 2 50.
    // tier 0 350 x 2.10 = 735.00; tier 1 150 x 2.41 = 361.50; tier 2 50 x 2.65 = 132.50; subtotal 1229.00.
    name: 'BLOCK tiers within one month',
    input: input(
      tariff(
        [
          item('IMPORT_ENERGY', '9.99', 'ALL_YEAR', 'kWh', [
            { block_index: 2, upper_limit: null, unit_price_cents: 265 },
            { block_index: 0, upper_limit: '350', unit_price_cents: 210 },
            { block_index: 1, upper_limit: 500, unit_price_cents: 241 },
          ]),
        ],
        { tariff_type: 'BLOCK' },
      ),
      SEASONS_ONLY,
      [
        reading(sast('2025-03-03T12:00'), 300),
        reading(sast('2025-03-10T12:00'), 150),
        reading(sast('2025-03-20T12:00'), 100),
      ],
      sast('2025-03-01T00:00'),
      sast('2025-04-01T00:00'),
    ),
    lines: [blockLine(0, 350, 2.1, 735), blockLine(1, 150, 2.41, 361.5), blockLine(2, 50, 2.65, 132.5)],
    subtotal: 1229,
    tax: 0,
    total: 1229,
  },
  {
    // Homelight 20A 2024/25: 0-350 @ 190.28c, above @ 215.62c. Local months refill the tiers:
    // March: 300 + 100 (31 Mar 23:30) = 400 -> 350 + 50. April: 200 (1 Apr 00:00 local, still 31 Mar in UTC)
    // + 200 = 400 -> 350 + 50. tier 0 700 x 1.9028 = 1331.96; tier 1 100 x 2.1562 = 215.62; subtotal 1547.58;
    // tax 15% = 232.137 -> 232.14; total 1779.72.
    name: 'BLOCK tiers refill at a local month boundary',
    input: input(
      tariff(
        [
          item('IMPORT_ENERGY', 0, 'ALL_YEAR', 'kWh', [
            { block_index: 0, upper_limit: 350, unit_price_cents: 190.28 },
            { block_index: 1, upper_limit: null, unit_price_cents: 215.62 },
          ]),
        ],
        { tariff_type: 'BLOCK', tax_rate: 15 },
      ),
      SEASONS_ONLY,
      [
        reading(sast('2025-03-31T12:00'), 300),
        reading(sast('2025-03-31T23:30'), 100),
        reading(sast('2025-04-01T00:00'), 200),
        reading(sast('2025-04-15T12:00'), 200),
      ],
      sast('2025-03-15T00:00'),
      sast('2025-04-20T00:00'),
    ),
    lines: [blockLine(0, 700, 1.9028, 1331.96), blockLine(1, 100, 2.1562, 215.62)],
    subtotal: 1547.58,
    tax: 232.14,
    total: 1779.72,
  },
  {
    // 06:00 to 18:00 = 0.5 day x 3.27 = 1.635 -> 1.64 (a half cent, away from zero).
    // No readings: 24 missing 30-minute slots, max_kva null.
    name: 'per-day SERVICE charge for 12 hours',
    input: input(
      tariff([item('SERVICE', '3.27', 'ALL_YEAR', 'day')]),
      SEASONS_ONLY,
      [],
      sast('2025-03-03T06:00'),
      sast('2025-03-03T18:00'),
    ),
    lines: [line('SERVICE', 'ALL_YEAR', 0.5, 3.27, 1.64, { unit: 'day' })],
    subtotal: 1.64,
    tax: 0,
    total: 1.64,
    also: { import_kwh: 0, max_kva: null, missing_intervals: 24 },
  },
  {
    // January 2025 = 31 days. SERVICE 31 x 3.27 = 101.37; ADMINISTRATION 31 x 0.72 = 22.32;
    // subtotal 123.69; tax 15% = 18.5535 -> 18.55; total 142.24.
    name: 'per-day charges over 31 days',
    input: input(
      tariff([item('SERVICE', '3.27', 'ALL_YEAR', 'day'), item('ADMINISTRATION', '0.72', 'ALL_YEAR', 'day')], {
        tax_rate: 15,
      }),
      SEASONS_ONLY,
      [],
      sast('2025-01-01T00:00'),
      sast('2025-02-01T00:00'),
    ),
    lines: [
      line('SERVICE', 'ALL_YEAR', 31, 3.27, 101.37, { unit: 'day' }),
      line('ADMINISTRATION', 'ALL_YEAR', 31, 0.72, 22.32, { unit: 'day' }),
    ],
    subtotal: 123.69,
    tax: 18.55,
    total: 142.24,
  },
  {
    // No seeded item type is per month; the unit is supported for tariffs that define one.
    // 1 Apr to 16 Apr = 15 of April's 30 days = 0.5 month. 70 x 0.5 = 35.00; 130 x 0.5 = 65.00; subtotal 100.00.
    name: 'per-month charges over half a month',
    input: input(
      tariff([item('SERVICE', 70, 'ALL_YEAR', 'month'), item('ADMINISTRATION', 130, 'ALL_YEAR', 'month')]),
      SEASONS_ONLY,
      [],
      sast('2025-04-01T00:00'),
      sast('2025-04-16T00:00'),
    ),
    lines: [
      line('SERVICE', 'ALL_YEAR', 0.5, 70, 35, { unit: 'month' }),
      line('ADMINISTRATION', 'ALL_YEAR', 0.5, 130, 65, { unit: 'month' }),
    ],
    subtotal: 100,
    tax: 0,
    total: 100,
  },
  {
    // 16 Jan to 15 Feb 2025: 16/31 of January + 14/28 of February = 63/62 = 1.0161290322... month;
    // 70 x 63/62 = 71.129032... -> 71.13.
    name: 'per-month charge across two months',
    input: input(
      tariff([item('SERVICE', 70, 'ALL_YEAR', 'month')]),
      SEASONS_ONLY,
      [],
      sast('2025-01-16T00:00'),
      sast('2025-02-15T00:00'),
    ),
    lines: [line('SERVICE', 'ALL_YEAR', 1.016129, 70, 71.13, { unit: 'month' })],
    subtotal: 71.13,
    tax: 0,
    total: 71.13,
  },
  {
    // 16 Jan to 15 Feb 2025. January max 50 kVA x 16/31 = 25.806451...; February max 35 kVA x 14/28 = 17.5.
    // quantity 43.306451... kVA-months x 12.13 = 313.032258... + 212.275 = 525.307258... -> 525.31.
    name: 'NETWORK_CAPACITY per kVA on each month maximum across two months',
    input: input(
      tariff([item('NETWORK_CAPACITY', '12.13', 'ALL_YEAR', 'kVA')]),
      SEASONS_ONLY,
      [
        reading(sast('2025-01-20T12:00'), 1, { kva: 40 }),
        reading(sast('2025-01-25T12:00'), 1, { kva: 50 }),
        reading(sast('2025-02-03T12:00'), 1, { kva: 30 }),
        reading(sast('2025-02-10T12:00'), 1, { kva: 35 }),
      ],
      sast('2025-01-16T00:00'),
      sast('2025-02-15T00:00'),
    ),
    lines: [line('NETWORK_CAPACITY', 'ALL_YEAR', 43.306452, 12.13, 525.31, { unit: 'kVA' })],
    subtotal: 525.31,
    tax: 0,
    total: 525.31,
    also: { max_kva: 50, import_kwh: 4 },
  },
  {
    // Import 10 + 5 = 15 kWh x 2.50 = 37.50. Export 3 + 4.25 = 7.25 kWh x -0.90 = -6.525 -> -6.53.
    // subtotal 30.97; tax 15% = 4.6455 -> 4.65; total 35.62.
    name: 'EXPORTED_ENERGY credit',
    input: input(
      tariff([item('IMPORT_ENERGY', '2.50'), item('EXPORTED_ENERGY', '0.90')], { tax_rate: 15 }),
      SEASONS_ONLY,
      [
        reading(sast('2025-03-03T10:00'), 10, { export_kwh: 3 }),
        reading(sast('2025-03-03T10:30'), 5, { export_kwh: 4.25 }),
      ],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T11:00'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 15, 2.5, 37.5), line('EXPORTED_ENERGY', 'ALL_YEAR', 7.25, -0.9, -6.53)],
    subtotal: 30.97,
    tax: 4.65,
    total: 35.62,
    also: { export_kwh: 7.25 },
  },
  {
    // Import 3 + 2 = 5 kWh x 2 = 10.00; reactive 5.5 + 4.5 = 10 kvarh x 0.1234 = 1.234 -> 1.23; subtotal 11.23.
    name: 'REACTIVE_ENERGY on kvarh',
    input: input(
      tariff([item('IMPORT_ENERGY', 2), item('REACTIVE_ENERGY', '0.1234', 'ALL_YEAR', 'kvarh')]),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 3, { kvarh: 5.5 }), reading(sast('2025-03-03T10:30'), 2, { kvarh: 4.5 })],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T11:00'),
    ),
    lines: [
      line('IMPORT_ENERGY', 'ALL_YEAR', 5, 2, 10),
      line('REACTIVE_ENERGY', 'ALL_YEAR', 10, 0.1234, 1.23, { unit: 'kvarh' }),
    ],
    subtotal: 11.23,
    tax: 0,
    total: 11.23,
    also: { kvarh: 10 },
  },
  {
    // Priced as FLAT: 4 + 6 = 10 kWh x 1.85 = 18.50, marked approximate.
    name: 'DYNAMIC priced from its items, approximate',
    input: input(
      tariff([item('IMPORT_ENERGY', '1.85')], { tariff_type: 'DYNAMIC' }),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 4), reading(sast('2025-03-03T10:30'), 6)],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T11:00'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 10, 1.85, 18.5)],
    subtotal: 18.5,
    tax: 0,
    total: 18.5,
    also: { approximate: true },
  },
  {
    // 3 March (SUMMER, no SUMMER item) 4 kWh -> ALL_YEAR 2.00 = 8.00; 7 July (WINTER) 1 kWh x 3.00 = 3.00.
    // Lines follow the tariff's item order; subtotal 11.00.
    name: 'ALL_YEAR fallback when the season has no item',
    input: input(
      tariff([item('IMPORT_ENERGY', 3, 'WINTER'), item('IMPORT_ENERGY', 2, 'ALL_YEAR')]),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 4), reading(sast('2025-07-07T10:00'), 1)],
      sast('2025-03-01T00:00'),
      sast('2025-08-01T00:00'),
    ),
    lines: [line('IMPORT_ENERGY', 'WINTER', 1, 3, 3), line('IMPORT_ENERGY', 'ALL_YEAR', 4, 2, 8)],
    subtotal: 11,
    tax: 0,
    total: 11,
  },
  {
    // 4 kWh on 3 March (SUMMER). IMPORT_ENERGY has only a WINTER item: used, 4 x 3.00 = 12.00.
    // LEGACY has SUMMER and WINTER items: the SUMMER one, 4 x 0.2278 = 0.9112 -> 0.91. subtotal 12.91.
    name: 'single-item fallback',
    input: input(
      tariff([item('IMPORT_ENERGY', 3, 'WINTER'), item('LEGACY', '0.5', 'WINTER'), item('LEGACY', '0.2278', 'SUMMER')]),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 4)],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T10:30'),
    ),
    lines: [line('IMPORT_ENERGY', 'WINTER', 4, 3, 12), line('LEGACY', 'SUMMER', 4, 0.2278, 0.91)],
    subtotal: 12.91,
    tax: 0,
    total: 12.91,
  },
  {
    // No calendar seasons: the season is unknown, so only ALL_YEAR or a type's single item apply.
    // IMPORT_ENERGY (single SUMMER item) 4 x 3.00 = 12.00; LEGACY (SUMMER + WINTER, no ALL_YEAR): no line;
    // SERVICE (SUMMER + ALL_YEAR) takes ALL_YEAR, 0.5 h = 1/48 day x 4.80 = 0.10. subtotal 12.10.
    name: 'no matching season uses ALL_YEAR or the single item only',
    input: input(
      tariff([
        item('IMPORT_ENERGY', 3, 'SUMMER'),
        item('LEGACY', '0.5', 'WINTER'),
        item('LEGACY', '0.2278', 'SUMMER'),
        item('SERVICE', '9.60', 'SUMMER', 'day'),
        item('SERVICE', '4.80', 'ALL_YEAR', 'day'),
      ]),
      { seasons: [], schedule: null, holidays: [] },
      [reading(sast('2025-03-03T10:00'), 4)],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T10:30'),
    ),
    lines: [
      line('IMPORT_ENERGY', 'SUMMER', 4, 3, 12),
      line('SERVICE', 'ALL_YEAR', 0.020833, 4.8, 0.1, { unit: 'day' }),
    ],
    subtotal: 12.1,
    tax: 0,
    total: 12.1,
  },
  {
    // 10:00 to 12:00 = 4 slots; readings at 10:00 and 11:00 -> 2 missing. The 12:00 reading is outside
    // [start, end) and ignored. 1 + 1 = 2 kWh x 2.00 = 4.00.
    name: 'missing intervals',
    input: input(
      tariff([item('IMPORT_ENERGY', 2)]),
      SEASONS_ONLY,
      [
        reading(sast('2025-03-03T10:00'), 1),
        reading(sast('2025-03-03T11:00'), 1),
        reading(sast('2025-03-03T12:00'), 100),
      ],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T12:00'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 2, 2, 4)],
    subtotal: 4,
    tax: 0,
    total: 4,
    also: { import_kwh: 2, missing_intervals: 2 },
  },
  {
    // 3 kWh x 0.345 = 1.035 exactly -> 1.04 (binary floating point gives 1.0349999... -> 1.03);
    // export 0.5 kWh x -0.09 = -0.045 -> -0.05 (away from zero). subtotal 0.99; tax 15% = 0.1485 -> 0.15;
    // total 1.14.
    name: 'rounding half away from zero',
    input: input(
      tariff([item('IMPORT_ENERGY', '0.345'), item('EXPORTED_ENERGY', '0.09')], { tax_rate: 15 }),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 3, { export_kwh: 0.5 })],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T10:30'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 3, 0.345, 1.04), line('EXPORTED_ENERGY', 'ALL_YEAR', 0.5, -0.09, -0.05)],
    subtotal: 0.99,
    tax: 0.15,
    total: 1.14,
  },
  {
    // WATER_CONSUMPTION (kL) and EV_MIN (minute) are not priced from electricity readings.
    // 1 kWh x 2.00 = 2.00.
    name: 'items of other units (kL, minute) are ignored',
    input: input(
      tariff([
        item('WATER_CONSUMPTION', 30, 'ALL_YEAR', 'kL'),
        item('IMPORT_ENERGY', 2),
        item('EV_MIN', '0.5', 'ALL_YEAR', 'minute'),
      ]),
      SEASONS_ONLY,
      [reading(sast('2025-03-03T10:00'), 1)],
      sast('2025-03-03T10:00'),
      sast('2025-03-03T10:30'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 1, 2, 2)],
    subtotal: 2,
    tax: 0,
    total: 2,
  },
  {
    // Without a schedule no interval has a period: no TOU line, and the bill is approximate.
    // IMPORT_ENERGY 2 kWh x 0.10 = 0.20 still applies.
    name: 'TOU energy without a schedule is left unpriced and approximate',
    input: input(
      tariff([...HOMEFLEX_ENERGY, item('IMPORT_ENERGY', '0.10')], { tariff_type: 'TIME_OF_USE' }),
      SEASONS_ONLY,
      [reading(sast('2025-03-04T08:00'), 2)],
      sast('2025-03-04T08:00'),
      sast('2025-03-04T08:30'),
    ),
    lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 2, 0.1, 0.2)],
    subtotal: 0.2,
    tax: 0,
    total: 0.2,
    also: { approximate: true },
  },
  {
    // Europe/Berlin, summer time from Sunday 31 Mar 2024 01:00 UTC. Weekdays: off-peak 00-07,
    // peak 07-20, off-peak 20-24; weekends standard all day.
    // Fri 29 06:30Z = 07:30 CET peak; Fri 29 18:30Z = 19:30 CET peak; Sat 30 23:30Z = Sun 00:30 CET standard;
    // Sun 31 22:30Z = Mon 00:30 CEST off-peak (a Monday); Mon 1 Apr 05:30Z = 07:30 CEST peak;
    // Mon 18:30Z = 20:30 CEST off-peak. 1 kWh each.
    // peak 3 x 0.40 = 1.20; standard 1 x 0.30 = 0.30; off-peak 2 x 0.20 = 0.40.
    // SERVICE: Fri 00:00 CET to Tue 00:00 CEST = 95 h = 3.958333... days x 1.00 = 3.96.
    // subtotal 5.86; tax 19% = 1.1134 -> 1.11; total 6.97.
    name: 'Europe/Berlin across the start of daylight saving time',
    input: input(
      tariff(
        [
          item('TOU_PEAK_ENERGY', '0.40'),
          item('TOU_STANDARD_ENERGY', '0.30'),
          item('TOU_OFF_PEAK_ENERGY', '0.20'),
          item('SERVICE', '1.00', 'ALL_YEAR', 'day'),
        ],
        { tariff_type: 'TIME_OF_USE', currency: 'EUR', tax_rate: 19, timezone: 'Europe/Berlin' },
      ),
      {
        seasons: [{ label: 'ALL_YEAR', date_start: '2024-01-01', date_end: '2024-12-31' }],
        schedule: {
          holiday_default: 'SUNDAY',
          rules: [
            ...rules('ALL_YEAR', 'WEEKDAY', [
              ['OFF_PEAK', 0, 7],
              ['PEAK', 7, 20],
              ['OFF_PEAK', 20, 24],
            ]),
            ...rules('ALL_YEAR', 'SATURDAY', [['STANDARD', 0, 24]]),
            ...rules('ALL_YEAR', 'SUNDAY', [['STANDARD', 0, 24]]),
          ],
        },
        holidays: [],
      },
      [
        reading(new Date('2024-03-29T06:30:00Z'), 1),
        reading(new Date('2024-03-29T18:30:00Z'), 1),
        reading(new Date('2024-03-30T23:30:00Z'), 1),
        reading(new Date('2024-03-31T22:30:00Z'), 1),
        reading(new Date('2024-04-01T05:30:00Z'), 1),
        reading(new Date('2024-04-01T18:30:00Z'), 1),
      ],
      new Date('2024-03-28T23:00:00Z'),
      new Date('2024-04-01T22:00:00Z'),
    ),
    lines: [
      line('TOU_PEAK_ENERGY', 'ALL_YEAR', 3, 0.4, 1.2, { period: 'PEAK' }),
      line('TOU_STANDARD_ENERGY', 'ALL_YEAR', 1, 0.3, 0.3, { period: 'STANDARD' }),
      line('TOU_OFF_PEAK_ENERGY', 'ALL_YEAR', 2, 0.2, 0.4, { period: 'OFF_PEAK' }),
      line('SERVICE', 'ALL_YEAR', 3.958333, 1, 3.96, { unit: 'day' }),
    ],
    subtotal: 5.86,
    tax: 1.11,
    total: 6.97,
    also: { currency: 'EUR', tax_rate: 19, missing_intervals: 190 - 6 },
  },
];

describe('priceReadings: hand-computed bills', () => {
  it.each(cases)('$name', ({ input: pricingInput, lines, subtotal, tax, total, also }) => {
    const bill = priceReadings(pricingInput);
    expect(bill.lines).toEqual(lines);
    expect(bill).toMatchObject({ approximate: false, ...also, subtotal, tax, total });
  });
});

describe('local time', () => {
  it('follows the Berlin offset change to the minute', () => {
    const change = Date.parse('2024-10-27T01:00:00Z');
    expect(utcOffsetMs('Europe/Berlin', change - 60_000)).toBe(2 * HOUR_MS);
    expect(utcOffsetMs('Europe/Berlin', change)).toBe(HOUR_MS);
    expect(utcOffsetMs(SAST, change)).toBe(2 * HOUR_MS);
  });

  it('measures a month by its elapsed time (Berlin March has 743 hours)', () => {
    const start = Date.parse('2024-02-29T23:00:00Z');
    const describeDay = createDayDescriber({ seasons: [], schedule: null, holidays: [] });
    expect(seasonShares('Europe/Berlin', describeDay, start, start + 360 * HOUR_MS)).toEqual([
      { monthKey: 2024 * 12 + 2, season: null, coveredMs: 360 * HOUR_MS, monthMs: 743 * HOUR_MS },
    ]);
  });

  it('places seasons that wrap over the new year', () => {
    const bill = priceReadings(
      input(
        tariff([item('IMPORT_ENERGY', 1, 'SUMMER'), item('IMPORT_ENERGY', 2, 'WINTER')]),
        SEASONS_ONLY,
        [
          reading(sast('2024-12-31T23:30'), 1),
          reading(sast('2025-01-01T00:00'), 1),
          reading(sast('2025-06-01T00:00'), 1),
        ],
        sast('2024-12-31T00:00'),
        sast('2025-06-02T00:00'),
      ),
    );
    expect(bill.lines).toEqual([line('IMPORT_ENERGY', 'SUMMER', 2, 1, 2), line('IMPORT_ENERGY', 'WINTER', 1, 2, 2)]);
  });
});

/** March changes season after the 15th (recurring): SUMMER 16 Sep to 15 Mar, WINTER 16 Mar to 15 Sep. */
const MID_MARCH_SEASONS: PricingCalendar = {
  seasons: [
    { label: 'WINTER', date_start: '2024-03-16', date_end: '2024-09-15' },
    { label: 'SUMMER', date_start: '2024-09-16', date_end: '2025-03-15' },
  ],
  schedule: null,
  holidays: [],
};

const seasonalDailyCases: Case[] = [
  {
    // May is SUMMER, June WINTER (Eskom). 1 May to 1 Jul 2025: 31 May days x 10 = 310.00;
    // 30 June days x 20 = 600.00; subtotal 910.00.
    name: "per-day SERVICE over May and June takes each day's season",
    input: input(
      tariff([item('SERVICE', 10, 'SUMMER', 'day'), item('SERVICE', 20, 'WINTER', 'day')]),
      SEASONS_ONLY,
      [],
      sast('2025-05-01T00:00'),
      sast('2025-07-01T00:00'),
    ),
    lines: [
      line('SERVICE', 'SUMMER', 31, 10, 310, { unit: 'day' }),
      line('SERVICE', 'WINTER', 30, 20, 600, { unit: 'day' }),
    ],
    subtotal: 910,
    tax: 0,
    total: 910,
  },
  {
    // 31 May 12:00 to 1 Jun 18:00: 0.5 May day x 10.00 = 5.00 (SUMMER); 0.75 June day x 20.00 = 15.00
    // (WINTER); subtotal 20.00; tax 15% = 3.00; total 23.00.
    name: 'per-day SERVICE over the 31 May -> 1 Jun season change, partial days',
    input: input(
      tariff([item('SERVICE', 20, 'WINTER', 'day'), item('SERVICE', 10, 'SUMMER', 'day')], { tax_rate: 15 }),
      SEASONS_ONLY,
      [],
      sast('2025-05-31T12:00'),
      sast('2025-06-01T18:00'),
    ),
    lines: [
      line('SERVICE', 'WINTER', 0.75, 20, 15, { unit: 'day' }),
      line('SERVICE', 'SUMMER', 0.5, 10, 5, { unit: 'day' }),
    ],
    subtotal: 20,
    tax: 3,
    total: 23,
  },
  {
    // 16 May to 16 Jun 2025. May (SUMMER): max 62 kVA x 16/31 of May = 32 kVA-months x 100 = 3200.00.
    // June (WINTER): max 80 kVA x 15/30 of June = 40 kVA-months x 200 = 8000.00. subtotal 11200.00.
    name: "per-kVA NETWORK_CAPACITY over May and June: each month's maximum at its season's price",
    input: input(
      tariff([item('NETWORK_CAPACITY', 100, 'SUMMER', 'kVA'), item('NETWORK_CAPACITY', 200, 'WINTER', 'kVA')]),
      SEASONS_ONLY,
      [
        reading(sast('2025-05-20T12:00'), 1, { kva: 62 }),
        reading(sast('2025-05-31T23:30'), 1, { kva: 40 }),
        reading(sast('2025-06-01T00:00'), 1, { kva: 80 }),
        reading(sast('2025-06-10T12:00'), 1, { kva: 70 }),
      ],
      sast('2025-05-16T00:00'),
      sast('2025-06-16T00:00'),
    ),
    lines: [
      line('NETWORK_CAPACITY', 'SUMMER', 32, 100, 3200, { unit: 'kVA' }),
      line('NETWORK_CAPACITY', 'WINTER', 40, 200, 8000, { unit: 'kVA' }),
    ],
    subtotal: 11200,
    tax: 0,
    total: 11200,
    also: { max_kva: 80, import_kwh: 4 },
  },
  {
    // March 2025 with the season changing after the 15th: 15 SUMMER days and 16 WINTER days of 31.
    // NETWORK_CAPACITY on March's maximum 62 kVA: 62 x 15/31 = 30 x 100 = 3000.00 (SUMMER);
    // 62 x 16/31 = 32 x 200 = 6400.00 (WINTER). SERVICE per month: 15/31 = 0.483871 x 62 = 30.00 (SUMMER);
    // 16/31 = 0.516129 x 93 = 48.00 (WINTER). subtotal 9478.00.
    name: 'per-month and per-kVA items split a month by the season of its days',
    input: input(
      tariff([
        item('NETWORK_CAPACITY', 100, 'SUMMER', 'kVA'),
        item('NETWORK_CAPACITY', 200, 'WINTER', 'kVA'),
        item('SERVICE', 62, 'SUMMER', 'month'),
        item('SERVICE', 93, 'WINTER', 'month'),
      ]),
      MID_MARCH_SEASONS,
      [reading(sast('2025-03-05T12:00'), 1, { kva: 62 }), reading(sast('2025-03-20T12:00'), 1, { kva: 50 })],
      sast('2025-03-01T00:00'),
      sast('2025-04-01T00:00'),
    ),
    lines: [
      line('NETWORK_CAPACITY', 'SUMMER', 30, 100, 3000, { unit: 'kVA' }),
      line('NETWORK_CAPACITY', 'WINTER', 32, 200, 6400, { unit: 'kVA' }),
      line('SERVICE', 'SUMMER', 0.483871, 62, 30, { unit: 'month' }),
      line('SERVICE', 'WINTER', 0.516129, 93, 48, { unit: 'month' }),
    ],
    subtotal: 9478,
    tax: 0,
    total: 9478,
  },
];

describe('priceReadings: per-day, per-month and per-kVA items take the season of each day', () => {
  it.each(seasonalDailyCases)('$name', ({ input: pricingInput, lines, subtotal, tax, total, also }) => {
    const bill = priceReadings(pricingInput);
    expect(bill.lines).toEqual(lines);
    expect(bill).toMatchObject({ approximate: false, ...also, subtotal, tax, total });
  });
});

const PROPERTY_START = sast('2025-05-28T00:00');
const PROPERTY_SLOTS = 8 * 48;
const SLOT_MS = 30 * 60_000;

const readingsArbitrary = fc
  .array(
    fc.record({
      present: fc.boolean(),
      import_kwh: fc.integer({ min: 0, max: 5_000_000 }).map((micro) => micro / 1_000_000),
      export_kwh: fc.integer({ min: 0, max: 2_000 }).map((milli) => milli / 1_000),
      kvarh: fc.integer({ min: 0, max: 3_000 }).map((milli) => milli / 1_000),
      kva: fc.integer({ min: 0, max: 90_000 }).map((milli) => milli / 1_000),
    }),
    { minLength: PROPERTY_SLOTS, maxLength: PROPERTY_SLOTS },
  )
  .map((slots) =>
    slots.flatMap((slot, index) =>
      slot.present ? [{ ...slot, ts: new Date(PROPERTY_START.getTime() + index * SLOT_MS) }] : [],
    ),
  );

const ENERGY_TARIFFS: PricingTariff[] = [
  tariff([
    item('IMPORT_ENERGY', '2.1611', 'SUMMER'),
    item('IMPORT_ENERGY', '2.7472', 'WINTER'),
    item('LEGACY', '0.2278'),
  ]),
  tariff([...HOMEFLEX_ENERGY, item('ANCILLARY_SERVICE', '0.0041'), item('EXPORTED_ENERGY', '0.8537')], {
    tariff_type: 'TIME_OF_USE',
  }),
];

const ALL_TARIFFS: PricingTariff[] = [
  ...ENERGY_TARIFFS,
  tariff(
    [
      item('IMPORT_ENERGY', 0, 'ALL_YEAR', 'kWh', [
        { block_index: 0, upper_limit: 35, unit_price_cents: 190.28 },
        { block_index: 1, upper_limit: null, unit_price_cents: 215.62 },
      ]),
      item('SERVICE', '3.27', 'ALL_YEAR', 'day'),
    ],
    { tariff_type: 'BLOCK' },
  ),
  tariff(
    [
      ...HOMEFLEX_ENERGY,
      item('NETWORK_CAPACITY', '12.13', 'ALL_YEAR', 'kVA'),
      item('SERVICE', 200, 'ALL_YEAR', 'month'),
      item('REACTIVE_ENERGY', '0.1532', 'ALL_YEAR', 'kvarh'),
    ],
    { tariff_type: 'TIME_OF_USE' },
  ),
  tariff(
    [
      ...HOMEFLEX_ENERGY,
      { ...item('NETWORK_DEMAND', '23.51', 'ALL_YEAR', 'kVA/month'), demand_periods: ['PEAK', 'STANDARD'] },
      { ...item('EXCESS_NETWORK_CAPACITY', '31.7', 'ALL_YEAR', 'kVA/month'), demand_basis: 'EXCESS' },
      { ...item('REACTIVE_ENERGY', '0.1532', 'WINTER', 'kvarh'), free_ratio: '0.3' },
      item('REACTIVE_ENERGY', 0, 'SUMMER', 'kvarh'),
    ],
    { tariff_type: 'TIME_OF_USE' },
  ),
];

const cents = (value: number) => Math.round(value * 100);

function pricingInput(
  pricingTariff: PricingTariff,
  readings: Reading[],
  fromSlot: number,
  toSlot: number,
): PricingInput {
  const start = new Date(PROPERTY_START.getTime() + fromSlot * SLOT_MS);
  const end = new Date(PROPERTY_START.getTime() + toSlot * SLOT_MS);
  const inRange = readings.filter((r) => r.ts >= start && r.ts < end);
  return input(pricingTariff, eskomCalendar(), inRange, start, end);
}

function unroundedSum(pricingInput: PricingInput): Dec {
  return collectCharges(pricingInput, measureReadings(pricingInput))
    .months.flatMap((month) => month.lines)
    .reduce((sum, line) => sum.plus(quantityOf(line).times(line.unitPrice)), ZERO);
}

describe('priceReadings: properties', () => {
  it('line amounts add up to the subtotal, and subtotal plus tax to the total', () => {
    fc.assert(
      fc.property(
        readingsArbitrary,
        fc.constantFrom(...ALL_TARIFFS),
        fc.constantFrom(0, 14, 15, 19, 7.7),
        (readings, pricingTariff, taxRate) => {
          const bill = priceReadings(
            pricingInput({ ...pricingTariff, tax_rate: taxRate }, readings, 0, PROPERTY_SLOTS),
          );
          const lineCents = bill.lines.reduce((sum, line) => sum + cents(line.amount), 0);
          expect(lineCents).toBe(cents(bill.subtotal));
          expect(cents(bill.subtotal) + cents(bill.tax)).toBe(cents(bill.total));
          // Tax is rounded per month: the bill's is within half a cent per month of the exact tax.
          const taxDrift = Math.abs(bill.tax - (bill.subtotal * taxRate) / 100);
          expect(taxDrift).toBeLessThanOrEqual(0.005 * bill.months.length + 1e-9);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('energy charges of two adjacent periods add up to those of the whole', () => {
    fc.assert(
      fc.property(
        readingsArbitrary,
        fc.constantFrom(...ENERGY_TARIFFS),
        fc.integer({ min: 1, max: PROPERTY_SLOTS - 1 }),
        (readings, pricingTariff, split) => {
          const whole = pricingInput(pricingTariff, readings, 0, PROPERTY_SLOTS);
          const first = pricingInput(pricingTariff, readings, 0, split);
          const second = pricingInput(pricingTariff, readings, split, PROPERTY_SLOTS);
          expect(unroundedSum(first).plus(unroundedSum(second)).equals(unroundedSum(whole))).toBe(true);

          const [wholeBill, firstBill, secondBill] = [whole, first, second].map(priceReadings) as [Bill, Bill, Bill];
          const lineCount = wholeBill.lines.length + firstBill.lines.length + secondBill.lines.length;
          const drift = Math.abs(cents(wholeBill.subtotal) - cents(firstBill.subtotal) - cents(secondBill.subtotal));
          expect(drift).toBeLessThanOrEqual(lineCount / 2);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('per-day and per-month charges of two adjacent periods add up to those of the whole, across 31 May -> 1 Jun', () => {
    const seasonal = tariff([
      item('SERVICE', '3.27', 'SUMMER', 'day'),
      item('SERVICE', '6.54', 'WINTER', 'day'),
      item('ADMINISTRATION', 70, 'SUMMER', 'month'),
      item('ADMINISTRATION', 130, 'WINTER', 'month'),
    ]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: PROPERTY_SLOTS - 1 }), (split) => {
        const [whole, first, second] = [
          [0, PROPERTY_SLOTS],
          [0, split],
          [split, PROPERTY_SLOTS],
        ].map(([from, to]) => unroundedSum(pricingInput(seasonal, [], from!, to!)));
        // Month fractions are divided to 40 significant digits, so the parts may differ in the last ones.
        expect(first!.plus(second!).minus(whole!).abs().lessThan('1e-30')).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it("the months' lines, subtotals, taxes and totals add up to the bill's", () => {
    fc.assert(
      fc.property(
        readingsArbitrary,
        fc.constantFrom(...ALL_TARIFFS),
        fc.constantFrom(0, 15, 7.7),
        (readings, t, taxRate) => {
          const bill = priceReadings(pricingInput({ ...t, tax_rate: taxRate }, readings, 0, PROPERTY_SLOTS));
          expect(bill.months.map((month) => month.month)).toEqual(['2025-05', '2025-06']);
          expect(addUpLines(bill.months.flatMap((month) => month.lines))).toEqual(centsByLine(bill.lines));
          for (const field of ['subtotal', 'tax', 'total'] as const) {
            expect(bill.months.reduce((sum, month) => sum + cents(month[field]), 0)).toBe(cents(bill[field]));
          }
          expect(bill.months.reduce((sum, month) => sum + month.missing_intervals, 0)).toBe(bill.missing_intervals);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a bill split at the month boundary adds up to the whole, to the cent', () => {
    const juneFirst = 4 * 48; // 2025-06-01T00:00 local, slots after 2025-05-28T00:00
    fc.assert(
      fc.property(readingsArbitrary, fc.constantFrom(...ALL_TARIFFS), (readings, t) => {
        const taxed = { ...t, tax_rate: 15 };
        const whole = priceReadings(pricingInput(taxed, readings, 0, PROPERTY_SLOTS));
        const parts = [
          priceReadings(pricingInput(taxed, readings, 0, juneFirst)),
          priceReadings(pricingInput(taxed, readings, juneFirst, PROPERTY_SLOTS)),
        ];
        expect(addUpLines(parts.flatMap((part) => part.lines))).toEqual(centsByLine(whole.lines));
        for (const field of ['subtotal', 'tax', 'total'] as const) {
          expect(cents(parts[0]![field]) + cents(parts[1]![field])).toBe(cents(whole[field]));
        }
        expect(parts.flatMap((part) => part.months)).toEqual(whole.months);
      }),
      { numRuns: 60 },
    );
  });
});

/** Amounts in cents by line (item type, season, period, block). */
function addUpLines(lines: BillLine[]): Map<string, number> {
  const byLine = new Map<string, number>();
  for (const line of lines) {
    const key = `${line.item_type_code}|${line.season}|${line.period}|${line.block_index}`;
    byLine.set(key, (byLine.get(key) ?? 0) + cents(line.amount));
  }
  return byLine;
}

function centsByLine(lines: BillLine[]): Map<string, number> {
  expect(new Set(lines.map((l) => `${l.item_type_code}|${l.season}|${l.period}|${l.block_index}`)).size).toBe(
    lines.length,
  );
  return addUpLines(lines);
}
