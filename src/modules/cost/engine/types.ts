import type { DayType, Period, Season, TariffType } from '../../tariffs/tariff-enums.ts';

export type { DayType, Period, Season, TariffType };

export interface PricingBlock {
  block_index: number;
  /** Cumulative kWh of the month up to which this tier applies; null for the final unbounded tier. */
  upper_limit: number | string | null;
  unit_price_cents: number;
}

export interface PricingItem {
  item_type_code: string;
  /** In the tariff's currency per `unit`; ignored when the item has blocks. */
  price: number | string;
  season: Season;
  /** The unit of the item's type: kWh, kvarh, kVA (per kVA per month), day, month, ... */
  unit: string;
  blocks: PricingBlock[];
}

export interface PricingTariff {
  id: number;
  tariff_type: TariffType;
  currency: string;
  /** A percentage, 0 to 100. */
  tax_rate: number | string;
  timezone: string;
  items: PricingItem[];
}

export interface TouRule {
  season: Season;
  day_type: DayType;
  period: Period;
  start_minute: number;
  /** Exclusive. */
  end_minute: number;
}

export interface PricingCalendar {
  /** Recurring every year: only the month and day of date_start and date_end (YYYY-MM-DD, inclusive) count. */
  seasons: { label: Season; date_start: string; date_end: string }[];
  schedule: { holiday_default: DayType; rules: TouRule[] } | null;
  holidays: { on_date: string; day_type_override: DayType | null }[];
}

export interface Reading {
  /** Start of the reading's interval. */
  ts: Date;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  kva: number;
}

export interface PricingInput {
  tariff: PricingTariff;
  calendar: PricingCalendar;
  /** Ascending by ts, start <= ts < end. */
  readings: Reading[];
  start: Date;
  end: Date;
  intervalMinutes: number;
}

export interface BillLine {
  item_type_code: string;
  /** The season of the tariff item applied. */
  season: Season;
  period: Period | null;
  block_index: number | null;
  quantity: number;
  unit: string;
  unit_price: number;
  amount: number;
}

export interface Bill {
  tariff_id: number;
  currency: string;
  approximate: boolean;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  max_kva: number | null;
  lines: BillLine[];
  subtotal: number;
  tax_rate: number;
  tax: number;
  total: number;
  missing_intervals: number;
}
