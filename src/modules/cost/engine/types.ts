import type { DayType, DemandBasis, Period, Season, TariffType } from '../../tariffs/tariffs.model.ts';

export type { DayType, DemandBasis, Period, Season, TariffType };

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
  /** The item's own unit, else its type's: kWh, kvarh, kVA or kVA/month, day, month, ... */
  unit: string;
  blocks: PricingBlock[];
  /** kVA/month items: the periods whose half hours count; kvarh items: the periods whose kvarh and kWh count (null: all). */
  demand_periods?: Period[] | null;
  /** kVA/month items: null is MONTH_MAX. */
  demand_basis?: DemandBasis | null;
  /** kvarh items: the share of the kWh of the same month and season charged nothing. */
  free_ratio?: number | string | null;
  /** SEWERAGE items: the share of the water volume charged (null: all). */
  volume_share?: number | string | null;
  /** SEWERAGE items: the most kL charged in a 30-day month (null: no cap). */
  max_kl?: number | string | null;
}

export interface PricingTariff {
  id: number;
  tariff_type: TariffType;
  currency: string;
  /** A percentage, 0 to 100. */
  tax_rate: number | string;
  timezone: string;
  /** Local dates, inclusive (YYYY-MM-DD); a bill outside them warns. */
  effective_from?: string;
  effective_to?: string;
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

/** What the meter measures: electricity (kWh) or water (kL, kept where imported kWh are). */
export type Utility = 'electricity' | 'water';

/** What a bill is priced with, whatever its usage is measured from. */
export interface BillingContext {
  /** Default electricity. */
  utility?: Utility;
  tariff: PricingTariff;
  calendar: PricingCalendar;
  start: Date;
  end: Date;
  intervalMinutes: number;
  /** The meter's notified maximum demand in kVA (NMD, UTILISED_CAPACITY and EXCESS bases). */
  notifiedMaxDemandKva?: number | string | null;
  /**
   * The local months (month keys) whose readings carry an apparent power other than their real
   * power: their kVA was measured, not taken as kW.
   */
  apparentPowerMonths?: ReadonlySet<number>;
}

export interface PricingInput extends BillingContext {
  /** Ascending by ts, start <= ts < end. */
  readings: Reading[];
  /**
   * Readings before start, ascending, from the first day of the 11th local month before start's:
   * they count only towards the demand of a UTILISED_CAPACITY item.
   */
  earlierReadings?: Reading[];
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

/** A month's demand figures in kVA (extensions §12.1). */
export interface BillDemand {
  /** The month's highest half-hour demand; null without readings. */
  max_kva: number | null;
  /**
   * The highest half-hour demand in the demand periods of the NETWORK_DEMAND kVA/month item, else
   * of the first MONTH_MAX kVA/month item; null without either.
   */
  chargeable_kva: number | null;
  /** The UTILISED_CAPACITY basis of the first item charged on it; null without one. */
  utilised_kva: number | null;
  /** The meter's notified maximum demand; null when not set. */
  nmd_kva: number | null;
  /** The EXCESS basis of the first item charged on it; null without one. */
  excess_kva: number | null;
}

/** One calendar month of the tariff's timezone within a bill (the first and last may be partial). */
export interface BillMonth {
  /** YYYY-MM. */
  month: string;
  start: string;
  end: string;
  /** A water meter's bill: the kL used in the month (its import_kwh, export_kwh and kvarh are 0). */
  volume_kl?: number;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  /** The month's highest half-hour demand; null without readings. */
  max_kva: number | null;
  /** demand.chargeable_kva. */
  chargeable_kva: number | null;
  demand: BillDemand;
  lines: BillLine[];
  subtotal: number;
  tax: number;
  total: number;
  /** The meter's aligned interval starts in the month's part of the period without a reading. */
  missing_intervals: number;
  /** Nothing missing and nothing unpriced in the month. */
  complete: boolean;
  warnings: string[];
}

export interface Bill {
  tariff_id: number;
  currency: string;
  approximate: boolean;
  /** A water meter's bill: the kL used (its import_kwh, export_kwh and kvarh are 0, max_kva null). */
  volume_kl?: number;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  max_kva: number | null;
  /** The months' lines added up (same item and block). */
  lines: BillLine[];
  subtotal: number;
  tax_rate: number;
  tax: number;
  total: number;
  missing_intervals: number;
  /** Every month is complete. */
  complete: boolean;
  /** The months' warnings, each text once. */
  warnings: string[];
  months: BillMonth[];
}
