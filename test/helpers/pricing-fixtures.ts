/** Tariffs, calendars and readings for the pricing engine's tests (Eskom's calendar, Homeflex energy). */
import type {
  BillLine,
  DayType,
  Period,
  PricingBlock,
  PricingCalendar,
  PricingInput,
  PricingItem,
  PricingTariff,
  Reading,
  Season,
  TouRule,
} from '../../src/modules/cost/engine/index.ts';

export const SAST = 'Africa/Johannesburg';
export const HOUR_MS = 3_600_000;

/** A wall-clock time 'YYYY-MM-DDTHH:MM' in Johannesburg (UTC+2, no daylight saving). */
export function sast(local: string): Date {
  return new Date(`${local}:00+02:00`);
}

export function item(
  code: string,
  price: number | string,
  season: Season = 'ALL_YEAR',
  unit = 'kWh',
  blocks: PricingBlock[] = [],
): PricingItem {
  return { item_type_code: code, price, season, unit, blocks };
}

export function tariff(items: PricingItem[], overrides: Partial<PricingTariff> = {}): PricingTariff {
  return { id: 7, tariff_type: 'FLAT', currency: 'ZAR', tax_rate: 0, timezone: SAST, items, ...overrides };
}

export function reading(ts: Date, import_kwh: number, extra: Partial<Reading> = {}): Reading {
  return { ts, import_kwh, export_kwh: 0, kvarh: 0, kva: 0, ...extra };
}

export function rules(season: Season, dayType: DayType, spans: [Period, number, number][]): TouRule[] {
  return spans.map(([period, fromHour, toHour]) => ({
    season,
    day_type: dayType,
    period,
    start_minute: fromHour * 60,
    end_minute: toHour * 60,
  }));
}

const ESKOM_SEASONS: PricingCalendar['seasons'] = [
  { label: 'WINTER', date_start: '2024-06-01', date_end: '2024-08-31' },
  { label: 'SUMMER', date_start: '2024-09-01', date_end: '2025-05-31' },
];

/** Eskom's periods from 2025/26 (reference/south-africa-tariffs.md). */
const ESKOM_RULES: TouRule[] = [
  ...rules('WINTER', 'WEEKDAY', [
    ['OFF_PEAK', 0, 6],
    ['PEAK', 6, 8],
    ['STANDARD', 8, 17],
    ['PEAK', 17, 20],
    ['STANDARD', 20, 22],
    ['OFF_PEAK', 22, 24],
  ]),
  ...rules('WINTER', 'SATURDAY', [
    ['OFF_PEAK', 0, 7],
    ['STANDARD', 7, 12],
    ['OFF_PEAK', 12, 17],
    ['STANDARD', 17, 19],
    ['OFF_PEAK', 19, 24],
  ]),
  ...rules('WINTER', 'SUNDAY', [
    ['OFF_PEAK', 0, 17],
    ['STANDARD', 17, 19],
    ['OFF_PEAK', 19, 24],
  ]),
  ...rules('SUMMER', 'WEEKDAY', [
    ['OFF_PEAK', 0, 6],
    ['STANDARD', 6, 7],
    ['PEAK', 7, 9],
    ['STANDARD', 9, 18],
    ['PEAK', 18, 21],
    ['STANDARD', 21, 22],
    ['OFF_PEAK', 22, 24],
  ]),
  ...rules('SUMMER', 'SATURDAY', [
    ['OFF_PEAK', 0, 7],
    ['STANDARD', 7, 12],
    ['OFF_PEAK', 12, 18],
    ['STANDARD', 18, 20],
    ['OFF_PEAK', 20, 24],
  ]),
  ...rules('SUMMER', 'SUNDAY', [
    ['OFF_PEAK', 0, 18],
    ['STANDARD', 18, 20],
    ['OFF_PEAK', 20, 24],
  ]),
];

export function eskomCalendar(holidays: PricingCalendar['holidays'] = []): PricingCalendar {
  return { seasons: ESKOM_SEASONS, schedule: { holiday_default: 'SATURDAY', rules: ESKOM_RULES }, holidays };
}

export const SEASONS_ONLY: PricingCalendar = { seasons: ESKOM_SEASONS, schedule: null, holidays: [] };

/** Homeflex 1 2025/26 energy, R/kWh (high season = WINTER, low season = SUMMER). */
export const HOMEFLEX_ENERGY: PricingItem[] = [
  item('TOU_PEAK_ENERGY', '7.0697', 'WINTER'),
  item('TOU_STANDARD_ENERGY', '2.1631', 'WINTER'),
  item('TOU_OFF_PEAK_ENERGY', '1.5926', 'WINTER'),
  item('TOU_PEAK_ENERGY', '3.2928', 'SUMMER'),
  item('TOU_STANDARD_ENERGY', '2.0490', 'SUMMER'),
  item('TOU_OFF_PEAK_ENERGY', '1.5926', 'SUMMER'),
];
const TOU_CODES: Record<Period, string> = {
  PEAK: 'TOU_PEAK_ENERGY',
  STANDARD: 'TOU_STANDARD_ENERGY',
  OFF_PEAK: 'TOU_OFF_PEAK_ENERGY',
};

export function line(
  code: string,
  season: Season,
  quantity: number,
  unit_price: number,
  amount: number,
  extra: Partial<BillLine> = {},
): BillLine {
  return {
    item_type_code: code,
    season,
    period: null,
    block_index: null,
    quantity,
    unit: 'kWh',
    unit_price,
    amount,
    ...extra,
  };
}

export function touLine(
  period: Period,
  season: Season,
  quantity: number,
  unit_price: number,
  amount: number,
): BillLine {
  return line(TOU_CODES[period], season, quantity, unit_price, amount, { period });
}

export function blockLine(blockIndex: number, quantity: number, unit_price: number, amount: number): BillLine {
  return line('IMPORT_ENERGY', 'ALL_YEAR', quantity, unit_price, amount, { block_index: blockIndex });
}

export function input(
  pricingTariff: PricingTariff,
  calendar: PricingCalendar,
  readings: Reading[],
  start: Date,
  end: Date,
  intervalMinutes = 30,
): PricingInput {
  return { tariff: pricingTariff, calendar, readings, start, end, intervalMinutes };
}
