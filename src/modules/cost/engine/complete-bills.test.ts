import { describe, expect, it } from 'vitest';
import {
  eskomCalendar,
  HOMEFLEX_ENERGY,
  input,
  item,
  line,
  reading,
  SEASONS_ONLY,
  sast,
  tariff,
  touLine,
} from '../../../../test/helpers/pricing-fixtures.ts';
import { priceReadings } from './index.ts';
import type { PricingCalendar, PricingItem, Reading } from './types.ts';

// A bill never hides a rand (extensions §12.1): what no item prices is named, each month says what
// it lacks, and `complete` is true only when nothing is missing or unpriced. Johannesburg is UTC+2;
// WINTER is June to August; 2025-06-02 is a Monday.

/** The calendar of a tariff without a distributor: no seasons, no schedule. */
const NO_DSO: PricingCalendar = { seasons: [], schedule: null, holidays: [] };

/** `count` half-hour readings of `kwh` each from a local time. */
function halfHours(from: string, count: number, kwh = 1, extra: Partial<Reading> = {}): Reading[] {
  return Array.from({ length: count }, (_, i) => reading(new Date(sast(from).getTime() + i * 1_800_000), kwh, extra));
}

const DAY = [sast('2025-06-02T00:00'), sast('2025-06-03T00:00')] as const;

function kvaItem(code: string, price: number, extra: Partial<PricingItem> = {}): PricingItem {
  return { ...item(code, price, 'ALL_YEAR', 'kVA/month'), ...extra };
}

describe('unpriced quantities are named and make the bill incomplete', () => {
  it('a FLAT tariff without a DSO and SUMMER and WINTER items prices nothing, and says so', () => {
    const items = [item('IMPORT_ENERGY', 2, 'SUMMER'), item('IMPORT_ENERGY', 3, 'WINTER')];
    const bill = priceReadings(input(tariff(items), NO_DSO, halfHours('2025-06-02T00:00', 48), ...DAY));
    // 48 half hours of 1 kWh; no item is ALL_YEAR or the single one of its type: 48 kWh unpriced.
    expect(bill).toMatchObject({ lines: [], subtotal: 0, total: 0, missing_intervals: 0, complete: false });
    expect(bill.warnings).toEqual(['No IMPORT_ENERGY item for no season: 48 kWh not priced']);
    expect(bill.months[0]).toMatchObject({
      complete: false,
      warnings: ['No IMPORT_ENERGY item for no season: 48 kWh not priced'],
    });
  });

  it("names the day's season for energy and days no item of the season prices", () => {
    const items = [
      item('IMPORT_ENERGY', 2, 'SUMMER'),
      item('IMPORT_ENERGY', 9, 'TRANSITION'),
      item('SERVICE', 10, 'SUMMER', 'day'),
      item('SERVICE', 11, 'TRANSITION', 'day'),
      item('LEGACY', '0.5'),
    ];
    const bill = priceReadings(
      input(tariff(items), SEASONS_ONLY, halfHours('2025-05-31T00:00', 96, 0.5), sast('2025-05-31T00:00'), DAY[0]),
    );
    // 31 May (SUMMER): 48 x 0.5 = 24 kWh x 2 = 48.00; 1 day x 10 = 10.00; legacy 24 x 0.5 = 12.00.
    // 1 June (WINTER): energy 24 kWh and service 1 day unpriced; legacy (ALL_YEAR) 24 x 0.5 = 12.00.
    const [may, june] = bill.months;
    expect(may).toMatchObject({
      lines: [
        line('IMPORT_ENERGY', 'SUMMER', 24, 2, 48),
        line('SERVICE', 'SUMMER', 1, 10, 10, { unit: 'day' }),
        line('LEGACY', 'ALL_YEAR', 24, 0.5, 12),
      ],
      subtotal: 70,
      complete: true,
      warnings: [],
    });
    const unpriced = [
      'No IMPORT_ENERGY item for WINTER: 24 kWh not priced',
      'No SERVICE item for WINTER: 1 day not priced',
    ];
    expect(june).toMatchObject({
      lines: [line('LEGACY', 'ALL_YEAR', 24, 0.5, 12)],
      subtotal: 12,
      complete: false,
      warnings: unpriced,
    });
    expect(bill).toMatchObject({ subtotal: 82, complete: false, warnings: unpriced });
  });

  it('names the kVA no item of the season prices', () => {
    const items = [
      kvaItem('NETWORK_DEMAND', 20, { season: 'SUMMER' }),
      kvaItem('NETWORK_DEMAND', 30, { season: 'TRANSITION' }),
    ];
    const readings = [reading(sast('2025-06-02T12:00'), 0, { kvarh: 10, kva: 90 })];
    const bill = priceReadings(input(tariff(items), SEASONS_ONLY, readings, ...DAY));
    // 90 kVA x 1/30 of June = 3 kVA-months of WINTER demand, unpriced.
    expect(bill.lines).toEqual([]);
    expect(bill.warnings).toEqual([
      'Missing readings: 47 of 48 intervals of 2025-06 have no reading',
      'No NETWORK_DEMAND item for WINTER: 3 kVA/month not priced',
    ]);
  });

  it('a tariff with no energy item names the imported kWh as IMPORT_ENERGY unpriced', () => {
    const bill = priceReadings(
      input(
        tariff([item('SERVICE', 5, 'ALL_YEAR', 'day')]),
        SEASONS_ONLY,
        halfHours('2025-06-02T00:00', 48, 2),
        ...DAY,
      ),
    );
    // 48 x 2 = 96 kWh on no line; 1 day x 5 = 5.00.
    expect(bill).toMatchObject({ subtotal: 5, complete: false });
    expect(bill.warnings).toEqual(['No IMPORT_ENERGY item for WINTER: 96 kWh not priced']);
  });

  it("a time-of-use tariff without a period's item names that period's kWh", () => {
    const items = HOMEFLEX_ENERGY.filter((i) => i.item_type_code !== 'TOU_PEAK_ENERGY');
    const readings = [reading(sast('2025-06-02T07:00'), 2), reading(sast('2025-06-02T12:00'), 3)];
    const bill = priceReadings(input(tariff(items, { tariff_type: 'TIME_OF_USE' }), eskomCalendar(), readings, ...DAY));
    // 07:00 is WINTER peak (no item), 12:00 standard: 3 x 2.1631 = 6.4893 -> 6.49.
    expect(bill.lines).toEqual([touLine('STANDARD', 'WINTER', 3, 2.1631, 6.49)]);
    expect(bill.warnings).toEqual([
      'Missing readings: 46 of 48 intervals of 2025-06 have no reading',
      'No TOU_PEAK_ENERGY item for WINTER: 2 kWh not priced',
    ]);
  });

  it('prices no item without meaning for electricity, and warns once per item type', () => {
    const items = [
      item('IMPORT_ENERGY', 1),
      item('WATER_CONSUMPTION', '29.7', 'ALL_YEAR', 'kL'),
      item('WATER_CONSUMPTION', '31.2', 'WINTER', 'kL'),
      item('EV_SESSION_FEE', 5, 'ALL_YEAR', 'session'),
      item('EV_MIN', 2, 'ALL_YEAR', 'minute'),
      item('CARBON', '0.5', 'ALL_YEAR', 'kWh'),
    ];
    const bill = priceReadings(input(tariff(items), SEASONS_ONLY, halfHours('2025-06-02T00:00', 48), ...DAY));
    // 48 kWh x 1 = 48.00; nothing else is priced.
    expect(bill).toMatchObject({ lines: [line('IMPORT_ENERGY', 'ALL_YEAR', 48, 1, 48)], total: 48, complete: false });
    expect(bill.warnings).toEqual(
      ['WATER_CONSUMPTION', 'EV_SESSION_FEE', 'EV_MIN', 'CARBON'].map(
        (code) => `${code} items are not priced: the item type has no meaning for an electricity meter`,
      ),
    );
  });

  it('a complete bill priced by every item warns nothing', () => {
    const items = [item('IMPORT_ENERGY', 2, 'SUMMER'), item('IMPORT_ENERGY', 3, 'WINTER')];
    const bill = priceReadings(input(tariff(items), SEASONS_ONLY, halfHours('2025-06-02T00:00', 48), ...DAY));
    // 48 kWh x 3 = 144.00.
    expect(bill).toMatchObject({ total: 144, complete: true, warnings: [] });
    expect(bill.months[0]).toMatchObject({ complete: true, warnings: [] });
  });
});

describe('missing intervals count the aligned interval starts of the period', () => {
  it('a period from 10:10 to 10:50 on a 30-minute meter has one interval, 10:30', () => {
    const bill = priceReadings(
      input(
        tariff([item('IMPORT_ENERGY', 1)]),
        SEASONS_ONLY,
        [reading(sast('2025-06-02T10:30'), 1)],
        sast('2025-06-02T10:10'),
        sast('2025-06-02T10:50'),
      ),
    );
    expect(bill).toMatchObject({ missing_intervals: 0, complete: true, warnings: [] });
  });

  it('counts from the first aligned start on a 15-minute meter, to the end exclusive', () => {
    // 10:05 to 11:00: starts 10:15, 10:30, 10:45; one read, two missing.
    const bill = priceReadings(
      input(
        tariff([item('IMPORT_ENERGY', 1)]),
        SEASONS_ONLY,
        [reading(sast('2025-06-02T10:30'), 1)],
        sast('2025-06-02T10:05'),
        sast('2025-06-02T11:00'),
        15,
      ),
    );
    expect(bill).toMatchObject({ missing_intervals: 2, complete: false });
    expect(bill.warnings).toEqual(['Missing readings: 2 of 3 intervals of 2025-06 have no reading']);
  });
});

describe('each month has its own warnings and completeness', () => {
  it('a month without any reading says so; the other month stays complete', () => {
    const items = [item('IMPORT_ENERGY', 2), item('SERVICE', 10, 'ALL_YEAR', 'day')];
    const bill = priceReadings(
      input(tariff(items), SEASONS_ONLY, halfHours('2025-05-31T00:00', 48), sast('2025-05-31T00:00'), DAY[0]),
    );
    // May: 48 kWh x 2 = 96.00 + 1 day x 10 = 106.00; June: 1 day x 10 = 10.00, no reading.
    expect(
      bill.months.map(({ month, subtotal, missing_intervals, complete, warnings }) => ({
        month,
        subtotal,
        missing_intervals,
        complete,
        warnings,
      })),
    ).toEqual([
      { month: '2025-05', subtotal: 106, missing_intervals: 0, complete: true, warnings: [] },
      { month: '2025-06', subtotal: 10, missing_intervals: 48, complete: false, warnings: ['No readings in 2025-06'] },
    ]);
    expect(bill).toMatchObject({ subtotal: 116, complete: false, warnings: ['No readings in 2025-06'] });
  });

  it("the bill's warnings are the months', each text once", () => {
    const bill = priceReadings(
      input(
        tariff([item('IMPORT_ENERGY', 1)], { tariff_type: 'DYNAMIC' }),
        SEASONS_ONLY,
        [...halfHours('2025-05-31T00:00', 48), ...halfHours('2025-06-01T00:00', 48)],
        sast('2025-05-31T00:00'),
        DAY[0],
      ),
    );
    const dynamic = 'A DYNAMIC tariff is priced from its items, as if FLAT';
    expect(bill.months.map((month) => month.warnings)).toEqual([[dynamic], [dynamic]]);
    expect(bill).toMatchObject({ warnings: [dynamic], complete: true, approximate: true });
  });
});

describe('kVA from kW', () => {
  it('warns when a kVA/month item is priced from readings without reactive energy', () => {
    const bill = priceReadings(
      input(
        tariff([item('IMPORT_ENERGY', 0), kvaItem('NETWORK_DEMAND', 30)]),
        SEASONS_ONLY,
        halfHours('2025-06-02T00:00', 48, 20, { kva: 40 }),
        ...DAY,
      ),
    );
    // Energy at 0; 40 kVA x 1/30 of June x 30 = 40.00.
    expect(bill).toMatchObject({ total: 40, complete: true });
    expect(bill.warnings).toEqual(['kVA taken as kW: the readings carry no reactive energy']);
  });

  it('says nothing when the readings carry kvarh', () => {
    const bill = priceReadings(
      input(
        tariff([item('IMPORT_ENERGY', 0), kvaItem('NETWORK_DEMAND', 30)]),
        SEASONS_ONLY,
        halfHours('2025-06-02T00:00', 48, 20, { kvarh: 1, kva: 40.05 }),
        ...DAY,
      ),
    );
    // 40.05 x 1/30 x 30 = 40.05.
    expect(bill).toMatchObject({ total: 40.05, complete: true, warnings: [] });
  });
});

describe('demand figures of each month', () => {
  it('names the network demand, utilised capacity, NMD and excess apart', () => {
    const items = [
      kvaItem('TRANSMISSION_NETWORK', 10),
      kvaItem('NETWORK_CAPACITY', 20, { demand_basis: 'UTILISED_CAPACITY' }),
      kvaItem('NETWORK_DEMAND', 30, { demand_periods: ['PEAK', 'STANDARD'] }),
      kvaItem('EXCESS_NETWORK_CAPACITY', 40, { demand_basis: 'EXCESS' }),
    ];
    const readings = [
      reading(sast('2025-06-02T07:00'), 40, { kvarh: 10, kva: 80 }), // WINTER weekday peak
      reading(sast('2025-06-02T23:00'), 60, { kvarh: 10, kva: 120 }), // off-peak
    ];
    const bill = priceReadings({
      ...input(tariff(items, { tariff_type: 'TIME_OF_USE' }), eskomCalendar(), readings, ...DAY),
      earlierReadings: [reading(sast('2025-02-10T12:00'), 75, { kva: 150 })],
      notifiedMaxDemandKva: 100,
    });
    // max 120; network demand in peak and standard 80; utilised max(NMD 100, Feb 150, June 120) = 150;
    // excess 120 - 100 = 20.
    expect(bill.months[0]!.demand).toEqual({
      max_kva: 120,
      chargeable_kva: 80,
      utilised_kva: 150,
      nmd_kva: 100,
      excess_kva: 20,
    });
    expect(bill.months[0]!.chargeable_kva).toBe(80);
  });

  it('without a NETWORK_DEMAND item names the first MONTH_MAX item, and null where no item uses a basis', () => {
    const items = [
      kvaItem('NETWORK_CAPACITY', 20, { demand_basis: 'NMD' }),
      kvaItem('TRANSMISSION_NETWORK', 10, { demand_periods: ['OFF_PEAK'] }),
    ];
    const readings = [
      reading(sast('2025-06-02T07:00'), 40, { kvarh: 10, kva: 80 }),
      reading(sast('2025-06-02T23:00'), 30, { kvarh: 10, kva: 60 }),
    ];
    const bill = priceReadings(input(tariff(items, { tariff_type: 'TIME_OF_USE' }), eskomCalendar(), readings, ...DAY));
    expect(bill.months[0]!.demand).toEqual({
      max_kva: 80,
      chargeable_kva: 60,
      utilised_kva: null,
      nmd_kva: null,
      excess_kva: null,
    });
  });
});

describe('reactive energy of the demand periods', () => {
  it('charges only the kvarh of the periods, above the free ratio of their kWh', () => {
    const reactive: PricingItem = {
      ...item('REACTIVE_ENERGY', '0.25', 'WINTER', 'kvarh'),
      free_ratio: '0.3',
      demand_periods: ['PEAK', 'STANDARD'],
    };
    const readings = [
      reading(sast('2025-06-02T07:00'), 10, { kvarh: 8 }), // peak
      reading(sast('2025-06-02T12:00'), 10, { kvarh: 2 }), // standard
      reading(sast('2025-06-02T23:00'), 10, { kvarh: 20 }), // off-peak: not counted
    ];
    const bill = priceReadings(
      input(tariff([...HOMEFLEX_ENERGY, reactive], { tariff_type: 'TIME_OF_USE' }), eskomCalendar(), readings, ...DAY),
    );
    // Peak and standard: 10 kvarh - 0.3 x 20 kWh = 4 kvarh x 0.25 = 1.00 (all periods: 30 - 9 = 21).
    expect(bill.lines.filter((l) => l.item_type_code === 'REACTIVE_ENERGY')).toEqual([
      line('REACTIVE_ENERGY', 'WINTER', 4, 0.25, 1, { unit: 'kvarh' }),
    ]);
  });
});
