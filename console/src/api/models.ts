/**
 * What the API answers, in the shapes of the contract (service-spec.md, extensions.md). The
 * generated schema.d.ts types the requests; until the OpenAPI document describes its responses,
 * their types are written here. Once it does, these become aliases of the generated ones.
 */

export interface Envelope<T> {
  success: boolean;
  message: string | null;
  data: T;
  count?: number;
}

export interface FailureEnvelope {
  success: false;
  message: string | null;
  error: string;
}

export interface User {
  id: string;
  email: string;
  created_at: string;
}

export interface Session {
  access_token: string;
  refresh_token: string;
  /** Seconds since the epoch. */
  expires_at: number;
  user: User;
}

export type Role = 'OWNER' | 'ADMIN' | 'MEMBER';

export interface Organization {
  id: string;
  name: string;
  is_personal_account: boolean;
  role: Role;
}

export interface BuildingBlock {
  id: number;
  account_id: string;
  name: string;
  building_type: string;
  description: string | null;
  address: string;
  city: string;
  state: string;
  postal_code: number;
  country: string;
  parent_id: number | null;
  area: number | null;
  is_active: boolean;
  location: string | null;
}

export type MeterType = 'ELECTRICITY' | 'WATER' | 'GAS' | 'SOLAR' | 'GENSET' | 'HVAC' | 'CARBON' | 'EV';

export interface Meter {
  id: number;
  account_id: string;
  building_block_id: number;
  meter_sn: string;
  meter_type: MeterType;
  name: string | null;
  tariff_id: number | null;
  interval_minutes: number;
  is_active: boolean;
}

export const ENERGY_SOURCES = ['grid', 'solar', 'genset', 'inverter', 'load'] as const;
export type EnergySource = (typeof ENERGY_SOURCES)[number];

export type DashboardConfig = { building_block_id: number; submeter_ids: number[] | null } & {
  [K in `${EnergySource}_meter_id` | `${EnergySource}_tariff_id` | 'water_supply_meter_id']: number | null;
};

export interface Dso {
  id: number;
  name: string;
  tz: string;
}

export type Season = 'SUMMER' | 'WINTER' | 'TRANSITION' | 'ALL_YEAR';
export type Period = 'PEAK' | 'STANDARD' | 'OFF_PEAK';
export type DayType = 'WEEKDAY' | 'SATURDAY' | 'SUNDAY' | 'PUBLIC_HOLIDAY';

export interface TariffBlock {
  id: number;
  tariff_item_id: number;
  block_index: number;
  upper_limit: number | null;
  unit_price_cents: number;
}

export interface TariffItem {
  id: number;
  tariff_id: number;
  item_type_code: string;
  price: number;
  season: Season;
  unit?: string | null;
  tariff_blocks: TariffBlock[];
}

export interface Tariff {
  id: number;
  account_id: string;
  name: string;
  description: string | null;
  dso_id: number | null;
  tou_schedule_id: number | null;
  meter_type: MeterType;
  tariff_type: 'FLAT' | 'TIME_OF_USE' | 'BLOCK' | 'DYNAMIC';
  currency: string;
  tax_rate: number;
  is_active: boolean;
  effective_from: string;
  effective_to: string;
  timezone: string;
  notes: string | null;
  cloned_from: number | null;
  tariff_items?: TariffItem[];
  dso?: Dso | null;
}

export interface TariffItemType {
  code: string;
  displayName: string;
  unit: string;
}

export interface TouRule {
  id: number;
  season_id: number;
  day_type: DayType;
  period: Period;
  start_minute: number;
  end_minute: number;
}

export interface DsoSeason {
  id: number;
  label: Season;
  date_start: string;
  date_end: string;
  tou_rules: TouRule[];
}

export interface TouSchedule {
  id: number;
  name: string;
  version: number;
  tz: string;
  holiday_default: DayType;
  dso: Dso;
  seasons: DsoSeason[];
}

export interface EnergyBucket {
  ts: string;
  /** The bucket's local name when grouped by calendar units (§11.7). */
  label?: string;
  import_kwh: number;
  export_kwh: number;
  net_kwh: number;
  kvarh: number;
}

export interface LatestPower {
  ts: string;
  power_kw: number;
  kva: number;
}

/** One row of a building's energy profile (§11.7): each configured source's energy in the bucket. */
export interface BuildingEnergyRow {
  ts: string;
  label?: string;
  sources: Partial<Record<EnergySource, { import_kwh: number; export_kwh: number; net_kwh: number }>>;
}

export interface BillLine {
  item_type_code: string;
  season: Season;
  period: Period | null;
  block_index: number | null;
  quantity: number;
  unit: string;
  unit_price: number;
  amount: number;
}

/** A bill's calendar month (§11.6). */
export interface BillMonth {
  month: string;
  start: string;
  end: string;
  import_kwh: number;
  export_kwh: number;
  kvarh: number;
  max_kva: number | null;
  chargeable_kva: number | null;
  lines: BillLine[];
  subtotal: number;
  tax: number;
  total: number;
  missing_intervals: number;
}

export interface Bill {
  tariff_id: number;
  meter_sn: string;
  start: string;
  end: string;
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
  /** §11.6; absent until the service computes bills per month. */
  months?: BillMonth[];
  complete?: boolean;
  warnings?: string[];
}

export interface SourceCost {
  source: EnergySource;
  meter_id: number | null;
  meter_sn: string | null;
  tariff_id: number | null;
  priced: boolean;
  reason: string | null;
  bills: Bill[];
  total: number | null;
}

export interface BuildingCost {
  building_block_id: number;
  start: string;
  end: string;
  sources: SourceCost[];
  totals: Record<string, number>;
}

export interface ReadingsAnswer {
  inserted: number;
  updated: number;
}
