/** The reference vocabulary: seasons, time-of-use day types and periods, and the item types of tariffs. */
export const SEASONS = ['SUMMER', 'WINTER', 'TRANSITION', 'ALL_YEAR'] as const;
export const TOU_DAY_TYPES = ['WEEKDAY', 'SATURDAY', 'SUNDAY', 'PUBLIC_HOLIDAY'] as const;
export const TOU_PERIODS = ['PEAK', 'STANDARD', 'OFF_PEAK'] as const;
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
  'SEWERAGE',
] as const;

export type Season = (typeof SEASONS)[number];
export type DayType = (typeof TOU_DAY_TYPES)[number];
export type Period = (typeof TOU_PERIODS)[number];
export type ItemTypeCode = (typeof ITEM_TYPE_CODES)[number];

/** A distribution system operator: the time zone its tariffs' calendars are in. */
export interface Dso {
  id: number;
  name: string;
  tz: string;
}
