/**
 * What other modules may use of tariffs (docs/ARCHITECTURE.md, "Layers"): the catalogue's account,
 * the contract's enumerations, the shape of items and tiers and their rules, tariff access (built
 * once in app.ts and passed in) and the answers' records. Every other file of the module is its own.
 */
export {
  addressedAccount,
  type TariffAccess,
  type TariffVersion,
} from './tariff-access.ts';
export { CATALOGUE_ACCOUNT_ID, type ItemValues, isCatalogueAccount, type TariffItem } from './tariff-basics.ts';
export type { TariffItemsReader } from './tariff-details.ts';
export {
  CURRENCIES,
  type DayType,
  DEMAND_BASES,
  type DemandBasis,
  ITEM_TYPE_CODES,
  ITEM_UNITS,
  type ItemTypeCode,
  type ItemUnit,
  METER_TYPES,
  type Period,
  SEASONS,
  type Season,
  type TariffType,
  TOU_PERIODS,
} from './tariff-enums.ts';
export {
  assertTierRules,
  checkTierRules,
  DEMAND_PERIODS_NEED_TIME_OF_USE,
  type RuleViolation,
  touScheduleId,
} from './tariff-rules.ts';
export { tariffBlock, tariffItemRecord } from './tariffs.responses.ts';
