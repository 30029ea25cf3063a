/**
 * The enumerations of the contract: every endpoint accepts all of their values (extensions §7,
 * superset). Seasons, day types, periods and item types are reference data, defined with it.
 */
export {
  type DayType,
  ITEM_TYPE_CODES,
  type ItemTypeCode,
  type Period,
  SEASONS,
  type Season,
  TOU_PERIODS,
} from '../reference/reference.model.ts';

export const METER_TYPES = ['ELECTRICITY', 'WATER', 'GAS', 'SOLAR', 'GENSET', 'HVAC', 'CARBON', 'EV'] as const;
export const TARIFF_TYPES = ['FLAT', 'TIME_OF_USE', 'BLOCK', 'DYNAMIC'] as const;
export const CURRENCIES = ['ZAR', 'USD', 'EUR', 'GBP', 'AUD', 'CAD', 'JPY', 'CNY'] as const;
/** What an item is priced per (extensions §11.5); an item without one takes its item type's unit. */
export const ITEM_UNITS = ['kWh', 'kvarh', 'kVA/month', 'day', 'month', 'kL'] as const;
/** The demand a kVA/month item charges (extensions §11.5); MONTH_MAX when an item names none. */
export const DEMAND_BASES = ['MONTH_MAX', 'NMD', 'UTILISED_CAPACITY', 'EXCESS'] as const;

export type TariffType = (typeof TARIFF_TYPES)[number];
export type ItemUnit = (typeof ITEM_UNITS)[number];
export type DemandBasis = (typeof DEMAND_BASES)[number];

/** The supplies a tariff may be for (extensions §13.1): a building's building_type names its class. */
export const CUSTOMER_CLASSES = ['RESIDENTIAL', 'COMMERCIAL', 'INDUSTRIAL', 'AGRICULTURAL'] as const;
export type CustomerClass = (typeof CUSTOMER_CLASSES)[number];
