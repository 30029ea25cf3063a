import { describe, expect, it } from 'vitest';
import {
  blockLine,
  eskomCalendar,
  input,
  item,
  line,
  reading,
  SEASONS_ONLY,
  sast,
  tariff,
} from '../../../../test/helpers/pricing-fixtures.ts';
import { priceReadings } from './index.ts';
import type { Bill, PricingInput, PricingItem, Reading } from './types.ts';

// Bills of real South African tariff features (extensions §11.5, §11.6), each computed by hand.
// Johannesburg is UTC+2 all year; WINTER (high demand) is June to August. 2025-06-02 is a Monday.

const JUNE = [sast('2025-06-01T00:00'), sast('2025-07-01T00:00')] as const;

function kvaItem(code: string, price: number, extra: Partial<PricingItem> = {}): PricingItem {
  return { ...item(code, price, 'ALL_YEAR', 'kVA'), ...extra };
}

function priceJune(items: PricingItem[], readings: Reading[], extra: Partial<PricingInput> = {}): Bill {
  const touTariff = tariff(items, { tariff_type: 'TIME_OF_USE' });
  return priceReadings({ ...input(touTariff, eskomCalendar(), readings, ...JUNE), ...extra });
}

const missingOf = (missing: number, expected: number, month: string) =>
  `Missing readings: ${missing} of ${expected} intervals of ${month} have no reading`;

describe('real bills: seasons per day', () => {
  it('charges 31 May at the SUMMER items and 1 June at the WINTER items, daily and per kVA', () => {
    const items = [
      item('SERVICE', 10, 'SUMMER', 'day'),
      item('SERVICE', 20, 'WINTER', 'day'),
      item('NETWORK_CAPACITY', 100, 'SUMMER', 'kVA'),
      item('NETWORK_CAPACITY', 200, 'WINTER', 'kVA'),
    ];
    const readings = [
      reading(sast('2025-05-31T12:00'), 0, { kva: 50 }),
      reading(sast('2025-06-01T12:00'), 0, { kva: 80 }),
    ];
    const bill = priceReadings(
      input(tariff(items), SEASONS_ONLY, readings, sast('2025-05-31T00:00'), sast('2025-06-02T00:00')),
    );
    // May: service 1 day x 10 = 10.00; capacity 50 kVA x 100 x 1/31 of May = 161.290322... -> 161.29.
    // June: service 1 day x 20 = 20.00; capacity 80 kVA x 200 x 1/30 of June = 533.333... -> 533.33.
    const may = [
      line('SERVICE', 'SUMMER', 1, 10, 10, { unit: 'day' }),
      line('NETWORK_CAPACITY', 'SUMMER', 1.612903, 100, 161.29, { unit: 'kVA' }),
    ];
    const june = [
      line('SERVICE', 'WINTER', 1, 20, 20, { unit: 'day' }),
      line('NETWORK_CAPACITY', 'WINTER', 2.666667, 200, 533.33, { unit: 'kVA' }),
    ];
    expect(bill.months.map((month) => [month.month, month.lines, month.subtotal])).toEqual([
      ['2025-05', may, 171.29],
      ['2025-06', june, 553.33],
    ]);
    expect(bill.lines).toEqual([may[0], june[0], may[1], june[1]]);
    expect(bill).toMatchObject({ subtotal: 724.62, tax: 0, total: 724.62, max_kva: 80 });
  });
});

describe('real bills: demand', () => {
  it('a network demand charge on [PEAK, STANDARD] ignores an off-peak spike', () => {
    const items = [kvaItem('NETWORK_DEMAND', 20, { demand_periods: ['PEAK', 'STANDARD'] })];
    const bill = priceJune(items, [
      reading(sast('2025-06-02T07:00'), 0, { kva: 100 }), // winter weekday 06-08: PEAK
      reading(sast('2025-06-03T02:00'), 0, { kva: 300 }), // 00-06: OFF_PEAK, not counted
      reading(sast('2025-06-04T12:00'), 0, { kva: 120 }), // 08-17: STANDARD
    ]);
    // Chargeable demand 120 kVA (the highest peak or standard half hour) x 20 x the whole month = 2,400.00.
    expect(bill.lines).toEqual([line('NETWORK_DEMAND', 'ALL_YEAR', 120, 20, 2400, { unit: 'kVA' })]);
    expect(bill.months[0]).toMatchObject({ max_kva: 300, chargeable_kva: 120, subtotal: 2400 });
    expect(bill).toMatchObject({ max_kva: 300, total: 2400 });
  });

  it('a 60-minute reading gives the demand of both its half hours', () => {
    const items = [kvaItem('NETWORK_DEMAND', 20, { demand_periods: ['STANDARD'] })];
    // 07:30-08:30 covers 07:30 (PEAK) and 08:00 (STANDARD): the standard half hour's demand is 90 kVA.
    const bill = priceJune(items, [reading(sast('2025-06-02T07:30'), 0, { kva: 90 })], { intervalMinutes: 60 });
    // 90 kVA x 20 = 1,800.00.
    expect(bill.lines).toEqual([line('NETWORK_DEMAND', 'ALL_YEAR', 90, 20, 1800, { unit: 'kVA' })]);
    expect(bill.months[0]!.chargeable_kva).toBe(90);
  });

  it("a 15-minute meter's demand is the mean of each half hour", () => {
    const items = [kvaItem('NETWORK_CAPACITY', 10)];
    const readings = [
      reading(sast('2025-06-02T12:00'), 0, { kva: 100 }),
      reading(sast('2025-06-02T12:15'), 0, { kva: 60 }),
      reading(sast('2025-06-02T12:30'), 0, { kva: 70 }),
      reading(sast('2025-06-02T12:45'), 0, { kva: 70 }),
    ];
    const bill = priceJune(items, readings, { intervalMinutes: 15 });
    // Half hours: (100 + 60) / 2 = 80 and 70; the month's maximum is 80 kVA, not the 100 of one reading.
    // 80 x 10 = 800.00.
    expect(bill.lines).toEqual([line('NETWORK_CAPACITY', 'ALL_YEAR', 80, 10, 800, { unit: 'kVA' })]);
    expect(bill).toMatchObject({ max_kva: 80, total: 800, missing_intervals: 2880 - 4 });
  });

  it("utilised capacity is raised by an earlier month's spike, within 12 months only", () => {
    const items = [kvaItem('NETWORK_CAPACITY', 15, { demand_basis: 'UTILISED_CAPACITY' })];
    const june = [reading(sast('2025-06-02T12:00'), 0, { kva: 90 })];
    const earlierReadings = [
      reading(sast('2024-05-15T12:00'), 0, { kva: 250 }), // 13 months before June 2025: not counted
      reading(sast('2025-03-10T12:00'), 0, { kva: 180 }),
    ];
    // max(NMD 100, highest half hour of July 2024 to June 2025 = 180 in March) = 180 kVA x 15 = 2,700.00.
    const bill = priceJune(items, june, { notifiedMaxDemandKva: 100, earlierReadings });
    expect(bill.lines).toEqual([line('NETWORK_CAPACITY', 'ALL_YEAR', 180, 15, 2700, { unit: 'kVA' })]);
    // No NETWORK_DEMAND or MONTH_MAX item: no chargeable figure (extensions §12.1); the basis is utilised_kva.
    expect(bill.months[0]).toMatchObject({ max_kva: 90, chargeable_kva: null });
    expect(bill.months[0]!.demand).toMatchObject({ utilised_kva: 180, nmd_kva: 100 });
    // Without the March spike the NMD is the higher: 100 x 15 = 1,500.00.
    const withoutSpike = priceJune(items, june, { notifiedMaxDemandKva: 100, earlierReadings: [] });
    expect(withoutSpike.lines).toEqual([line('NETWORK_CAPACITY', 'ALL_YEAR', 100, 15, 1500, { unit: 'kVA' })]);
  });

  it('excess network capacity charges the demand above the NMD, month by month', () => {
    const items = [kvaItem('EXCESS_NETWORK_CAPACITY', 30, { demand_basis: 'EXCESS' })];
    const readings = [
      reading(sast('2025-06-02T12:00'), 0, { kva: 130 }),
      reading(sast('2025-07-02T12:00'), 0, { kva: 95 }),
    ];
    const bill = priceReadings({
      ...input(tariff(items), SEASONS_ONLY, readings, sast('2025-06-01T00:00'), sast('2025-08-01T00:00')),
      notifiedMaxDemandKva: 100,
    });
    // June: 130 - 100 = 30 kVA x 30 = 900.00; July: 95 is below the NMD, nothing.
    const juneLine = line('EXCESS_NETWORK_CAPACITY', 'ALL_YEAR', 30, 30, 900, { unit: 'kVA' });
    expect(bill.months.map((month) => month.lines)).toEqual([[juneLine], []]);
    expect(bill).toMatchObject({ lines: [juneLine], subtotal: 900, total: 900 });
  });

  it('an NMD basis charges the notified demand pro rata of a part month', () => {
    const items = [kvaItem('NETWORK_CAPACITY', 12, { demand_basis: 'NMD' })];
    const bill = priceReadings({
      ...input(tariff(items), SEASONS_ONLY, [], sast('2025-06-16T00:00'), sast('2025-07-01T00:00')),
      notifiedMaxDemandKva: 150,
    });
    // 150 kVA x 15/30 of June = 75 kVA-months x 12 = 900.00.
    expect(bill.lines).toEqual([line('NETWORK_CAPACITY', 'ALL_YEAR', 75, 12, 900, { unit: 'kVA' })]);
    // A month without any reading says so (extensions §12.1).
    expect(bill.warnings).toEqual(['No readings in 2025-06']);
  });

  it('counts a missing NMD as 0 and warns', () => {
    const items = [kvaItem('NETWORK_CAPACITY', 12, { demand_basis: 'NMD' })];
    const bill = priceJune(items, [reading(sast('2025-06-02T12:00'), 1, { kva: 40 })]);
    expect(bill).toMatchObject({ lines: [], subtotal: 0, total: 0 });
    // Warnings per month (§12.1); the reading's 1 kWh is on no line of this demand-only tariff.
    expect(bill.warnings).toEqual([
      missingOf(1439, 1440, '2025-06'),
      "NETWORK_CAPACITY (NMD) needs the meter's notified maximum demand, which is missing: counted as 0 kVA",
      'No IMPORT_ENERGY item for WINTER: 1 kWh not priced',
    ]);
    expect(bill.complete).toBe(false);
  });

  it('warns when a kVA item prices a meter whose readings carry no reactive energy', () => {
    const bill = priceJune([kvaItem('NETWORK_DEMAND', 20)], [reading(sast('2025-06-02T12:00'), 5)]);
    expect(bill).toMatchObject({ lines: [], total: 0 });
    // The kVA of readings without kvarh is their kW (extensions §12.1).
    expect(bill.warnings).toContain('kVA taken as kW: the readings carry no reactive energy');
  });
});

describe('real bills: reactive energy', () => {
  const items = [
    { ...item('REACTIVE_ENERGY', 0.25, 'WINTER', 'kvarh'), free_ratio: 0.3 },
    item('REACTIVE_ENERGY', 0, 'SUMMER', 'kvarh'),
  ];

  it('charges only the kvarh above 30% of the kWh of the month', () => {
    const bill = priceJune(items, [reading(sast('2025-06-02T12:00'), 1000, { kvarh: 400 })]);
    // 400 kvarh - 0.3 x 1000 kWh = 100 kvarh x 0.25 = 25.00.
    expect(bill.lines).toEqual([line('REACTIVE_ENERGY', 'WINTER', 100, 0.25, 25, { unit: 'kvarh' })]);
    expect(bill).toMatchObject({ kvarh: 400, import_kwh: 1000, total: 25 });
  });

  it('charges nothing below the free ratio', () => {
    const bill = priceJune(items, [reading(sast('2025-06-02T12:00'), 1000, { kvarh: 250 })]);
    // 250 kvarh is under 0.3 x 1000 = 300 kvarh.
    expect(bill).toMatchObject({ lines: [], subtotal: 0, kvarh: 250 });
  });

  it('charges the low-demand season at its own (zero) item', () => {
    const bill = priceReadings(
      input(
        tariff(items),
        SEASONS_ONLY,
        [reading(sast('2025-05-15T12:00'), 100, { kvarh: 80 })],
        sast('2025-05-15T00:00'),
        sast('2025-05-16T00:00'),
      ),
    );
    // SUMMER has no free ratio and a price of 0: 80 kvarh x 0 = 0.00.
    expect(bill.lines).toEqual([line('REACTIVE_ENERGY', 'SUMMER', 80, 0, 0, { unit: 'kvarh' })]);
  });
});

describe('real bills: units of real charges', () => {
  it("prices Homeflex's network demand per kWh and its capacity charges per day", () => {
    const items = [
      item('NETWORK_DEMAND', 0.3, 'ALL_YEAR', 'kWh'),
      item('NETWORK_CAPACITY', 5, 'ALL_YEAR', 'day'),
      item('GENERATION_CAPACITY', 2, 'ALL_YEAR', 'day'),
    ];
    const bill = priceReadings(
      input(
        tariff(items),
        SEASONS_ONLY,
        [reading(sast('2025-06-02T12:00'), 20)],
        sast('2025-06-02T00:00'),
        sast('2025-06-03T00:00'),
      ),
    );
    // 20 kWh x 0.30 = 6.00; 1 day x 5 = 5.00; 1 day x 2 = 2.00; total 13.00.
    expect(bill.lines).toEqual([
      line('NETWORK_DEMAND', 'ALL_YEAR', 20, 0.3, 6),
      line('NETWORK_CAPACITY', 'ALL_YEAR', 1, 5, 5, { unit: 'day' }),
      line('GENERATION_CAPACITY', 'ALL_YEAR', 1, 2, 2, { unit: 'day' }),
    ]);
    expect(bill.total).toBe(13);
  });

  it('charges a monthly fixed charge pro rata of a part month', () => {
    const items = [item('SERVICE', 200, 'ALL_YEAR', 'month')];
    const bill = priceReadings(
      input(tariff(items), SEASONS_ONLY, [], sast('2025-06-11T00:00'), sast('2025-07-01T00:00')),
    );
    // 20 of June's 30 days: 200 x 20/30 = 133.333... -> 133.33.
    expect(bill.lines).toEqual([line('SERVICE', 'ALL_YEAR', 0.666667, 200, 133.33, { unit: 'month' })]);
  });

  it('prices Homelight decimal cents across a block boundary', () => {
    const blocks = [
      { block_index: 1, upper_limit: 600, unit_price_cents: 232.31 },
      { block_index: 2, upper_limit: null, unit_price_cents: 394.86 },
    ];
    const homelight = tariff([item('IMPORT_ENERGY', 0, 'ALL_YEAR', 'kWh', blocks)], { tariff_type: 'BLOCK' });
    const bill = priceReadings(input(homelight, SEASONS_ONLY, [reading(sast('2025-06-02T12:00'), 650)], ...JUNE));
    // 600 kWh x 2.3231 = 1,393.86; 50 kWh x 3.9486 = 197.43; total 1,591.29.
    expect(bill.lines).toEqual([blockLine(1, 600, 2.3231, 1393.86), blockLine(2, 50, 3.9486, 197.43)]);
    expect(bill.total).toBe(1591.29);
  });
});

describe('real bills: months', () => {
  it('a two-month bill is the sum of its months, tax rounded per month', () => {
    const items = [item('IMPORT_ENERGY', '1.1111'), item('SERVICE', 0.5, 'ALL_YEAR', 'day')];
    const readings = [
      reading(sast('2025-05-31T10:00'), 3),
      reading(sast('2025-06-01T10:00'), 3),
      reading(sast('2025-06-01T11:00'), 0.03),
    ];
    const bill = priceReadings(
      input(
        tariff(items, { tax_rate: 15 }),
        SEASONS_ONLY,
        readings,
        sast('2025-05-31T00:00'),
        sast('2025-06-02T00:00'),
      ),
    );
    // May: 3 kWh x 1.1111 = 3.3333 -> 3.33; 1 day x 0.50; subtotal 3.83; tax 0.5745 -> 0.57; total 4.40.
    // June: 3.03 kWh x 1.1111 = 3.366633 -> 3.37; 0.50; subtotal 3.87; tax 0.5805 -> 0.58; total 4.45.
    // The bill: 7.70 + tax 1.15 (one tax on 7.70 would round 1.155 to 1.16) = 8.85.
    expect(
      bill.months.map(({ month, start, end, import_kwh, subtotal, tax, total, missing_intervals }) => ({
        month,
        start,
        end,
        import_kwh,
        subtotal,
        tax,
        total,
        missing_intervals,
      })),
    ).toEqual([
      {
        month: '2025-05',
        start: '2025-05-30T22:00:00.000Z',
        end: '2025-05-31T22:00:00.000Z',
        import_kwh: 3,
        subtotal: 3.83,
        tax: 0.57,
        total: 4.4,
        missing_intervals: 47,
      },
      {
        month: '2025-06',
        start: '2025-05-31T22:00:00.000Z',
        end: '2025-06-01T22:00:00.000Z',
        import_kwh: 3.03,
        subtotal: 3.87,
        tax: 0.58,
        total: 4.45,
        missing_intervals: 46,
      },
    ]);
    expect(bill.lines).toEqual([
      line('IMPORT_ENERGY', 'ALL_YEAR', 6.03, 1.1111, 6.7),
      line('SERVICE', 'ALL_YEAR', 2, 0.5, 1, { unit: 'day' }),
    ]);
    expect(bill).toMatchObject({ import_kwh: 6.03, subtotal: 7.7, tax: 1.15, total: 8.85, complete: false });
    // Each month names its own missing readings (extensions §12.1).
    expect(bill.warnings).toEqual([missingOf(47, 48, '2025-05'), missingOf(46, 48, '2025-06')]);
  });
});

describe('real bills: warnings', () => {
  const flat = (overrides = {}) =>
    tariff([item('IMPORT_ENERGY', 1)], { effective_from: '2025-07-01', effective_to: '2026-06-30', ...overrides });
  const halfHours = (from: string, count: number) =>
    Array.from({ length: count }, (_, i) => reading(new Date(sast(from).getTime() + i * 1_800_000), 1));

  it('a complete bill inside the effective dates warns nothing', () => {
    const bill = priceReadings(
      input(
        flat(),
        SEASONS_ONLY,
        halfHours('2025-07-01T00:00', 48),
        sast('2025-07-01T00:00'),
        sast('2025-07-02T00:00'),
      ),
    );
    expect(bill).toMatchObject({ complete: true, warnings: [], missing_intervals: 0, total: 48 });
  });

  it('a period before effective_from warns, all or part of it', () => {
    const june = priceReadings(input(flat(), SEASONS_ONLY, [], sast('2025-06-01T00:00'), sast('2025-06-02T00:00')));
    expect(june.warnings).toContain("The period is outside the tariff's effective dates (2025-07-01 to 2026-06-30)");
    const across = priceReadings(input(flat(), SEASONS_ONLY, [], sast('2025-06-30T00:00'), sast('2025-07-02T00:00')));
    expect(across.warnings).toContain(
      "Part of the period is outside the tariff's effective dates (2025-07-01 to 2026-06-30)",
    );
    // effective_to is inclusive: the whole of 30 June 2026 is inside.
    const lastDay = priceReadings(
      input(
        flat(),
        SEASONS_ONLY,
        halfHours('2026-06-30T00:00', 48),
        sast('2026-06-30T00:00'),
        sast('2026-07-01T00:00'),
      ),
    );
    expect(lastDay.warnings).toEqual([]);
  });

  it('a DYNAMIC tariff is approximate and says why', () => {
    const bill = priceReadings(
      input(
        flat({ tariff_type: 'DYNAMIC' }),
        SEASONS_ONLY,
        halfHours('2025-07-01T00:00', 48),
        sast('2025-07-01T00:00'),
        sast('2025-07-02T00:00'),
      ),
    );
    expect(bill).toMatchObject({
      approximate: true,
      warnings: ['A DYNAMIC tariff is priced from its items, as if FLAT'],
    });
  });
});
