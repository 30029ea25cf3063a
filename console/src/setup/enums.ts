import type { BuildingBlock, Meter, Tariff, TariffItem } from '../api/models.ts';

/** The values the API accepts, typed by its OpenAPI document so that a value it does not know fails to compile. */
export const METER_TYPES: Meter['meter_type'][] = [
  'ELECTRICITY',
  'SOLAR',
  'GENSET',
  'WATER',
  'GAS',
  'HVAC',
  'CARBON',
  'EV',
];
export const INTERVALS: Meter['interval_minutes'][] = [5, 10, 15, 30, 60];
export const TARIFF_TYPES: Tariff['tariff_type'][] = ['FLAT', 'TIME_OF_USE', 'BLOCK', 'DYNAMIC'];
export const CURRENCIES: Tariff['currency'][] = ['ZAR', 'USD', 'EUR', 'GBP', 'AUD', 'CAD', 'JPY', 'CNY'];
export const SEASONS: TariffItem['season'][] = ['ALL_YEAR', 'SUMMER', 'WINTER', 'TRANSITION'];
export const UNITS: NonNullable<TariffItem['unit']>[] = ['kWh', 'kvarh', 'kVA/month', 'day', 'month'];
export const DEMAND_BASES: NonNullable<TariffItem['demand_basis']>[] = [
  'MONTH_MAX',
  'NMD',
  'UTILISED_CAPACITY',
  'EXCESS',
];
export const PERIODS: NonNullable<TariffItem['demand_periods']>[number][] = ['PEAK', 'STANDARD', 'OFF_PEAK'];
export const BUILDING_TYPES: BuildingBlock['building_type'][] = [
  'COMMERCIAL',
  'RESIDENTIAL',
  'INDUSTRIAL',
  'MIXED_USE',
  'PUBLIC',
  'AGRICULTURAL',
  'OTHER',
];
