/** The enumerations of the contract: every endpoint accepts all of their values (extensions §7, superset). */
export const METER_TYPES = ['ELECTRICITY', 'WATER', 'GAS', 'SOLAR', 'GENSET', 'HVAC', 'CARBON', 'EV'] as const;
export const TARIFF_TYPES = ['FLAT', 'TIME_OF_USE', 'BLOCK', 'DYNAMIC'] as const;
export const CURRENCIES = ['ZAR', 'USD', 'EUR', 'GBP', 'AUD', 'CAD', 'JPY', 'CNY'] as const;
export const SEASONS = ['SUMMER', 'WINTER', 'TRANSITION', 'ALL_YEAR'] as const;
export const TOU_DAY_TYPES = ['WEEKDAY', 'SATURDAY', 'SUNDAY', 'PUBLIC_HOLIDAY'] as const;
export const TOU_PERIODS = ['PEAK', 'STANDARD', 'OFF_PEAK'] as const;
/** What an item is priced per (extensions §11.5); an item without one takes its item type's unit. */
export const ITEM_UNITS = ['kWh', 'kvarh', 'kVA/month', 'day', 'month'] as const;
/** The demand a kVA/month item charges (extensions §11.5); MONTH_MAX when an item names none. */
export const DEMAND_BASES = ['MONTH_MAX', 'NMD', 'UTILISED_CAPACITY', 'EXCESS'] as const;
export const ITEM_TYPE_CODES = [
  'TOU_PEAK_ENERGY',
  'TOU_OFF_PEAK_ENERGY',
  'TOU_STANDARD_ENERGY',
  'IMPORT_ENERGY',
  'EXPORTED_ENERGY',
  'ANCILLARY_SERVICE',
  'REACTIVE_ENERGY',
  'NETWORK_CAPACITY',
  'NETWORK_DEMAND',
  'URBAN_LV_SUBSIDY',
  'SERVICE',
  'ADMINISTRATION',
  'RURAL_SUBSIDY',
  'LEGACY',
  'GENERATION_CAPACITY',
  'TRANSMISSION_NETWORK',
  'WATER_CONSUMPTION',
  'CARBON',
  'EV_MIN',
  'EV_SESSION_FEE',
  'AFFORDABILITY',
  'EXCESS_NETWORK_CAPACITY',
  'ELECTRIFICATION_AND_RURAL_SUBSIDY',
] as const;

export type TariffType = (typeof TARIFF_TYPES)[number];
export type Season = (typeof SEASONS)[number];
export type DayType = (typeof TOU_DAY_TYPES)[number];
export type Period = (typeof TOU_PERIODS)[number];
export type ItemTypeCode = (typeof ITEM_TYPE_CODES)[number];
export type ItemUnit = (typeof ITEM_UNITS)[number];
export type DemandBasis = (typeof DEMAND_BASES)[number];
