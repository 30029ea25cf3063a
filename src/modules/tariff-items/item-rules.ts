import type { DemandBasis, ItemUnit, Period, TariffType } from '../tariffs/tariffs.model.ts';
import { DEMAND_PERIODS_NEED_TIME_OF_USE, type RuleViolation } from '../tariffs/tariffs.model.ts';

// The rules of extensions §11.5, §12.1 and §13.6 on an item's unit, demand_periods, demand_basis, free_ratio,
// volume_share and max_kl:
// the schemas check each value, these rules what an item's values may be together with its item
// type's unit and its tariff's type (the services check them on the rows they lock).

/** The fields of an item that these rules constrain; null or absent where unset. */
export interface ItemDemandFields {
  item_type_code: string;
  unit?: ItemUnit | null | undefined;
  demand_periods?: Period[] | null | undefined;
  demand_basis?: DemandBasis | null | undefined;
  free_ratio?: number | null | undefined;
  volume_share?: number | null | undefined;
  max_kl?: number | null | undefined;
}

/** The item type's units as the API spells them: an item type's `kVA` is per kVA per month. */
const ITEM_UNIT_OF_TYPE_UNIT: Readonly<Record<string, ItemUnit>> = { kVA: 'kVA/month' };

/** What the item is priced per: its own unit, else its item type's. */
function effectiveUnit(unit: ItemUnit | null | undefined, typeUnit: string): string {
  return unit ?? ITEM_UNIT_OF_TYPE_UNIT[typeUnit] ?? typeUnit;
}

/** Whether the item carries a field whose validity depends on its unit or its tariff. */
export const hasDemandFields = (item: ItemDemandFields) =>
  item.demand_periods != null ||
  item.demand_basis != null ||
  item.free_ratio != null ||
  item.volume_share != null ||
  item.max_kl != null;

/**
 * What is wrong with the item's fields, given its item type's unit and, when it has
 * demand_periods, its tariff's type.
 */
export function itemFieldViolations(
  item: ItemDemandFields,
  typeUnit: string,
  tariffType: TariffType | null,
): RuleViolation[] {
  const unit = effectiveUnit(item.unit, typeUnit);
  const pricedPer = `this item is priced per ${unit}`;
  const violations: RuleViolation[] = [];
  if (item.demand_periods != null) {
    if (tariffType !== 'TIME_OF_USE') {
      violations.push({ path: ['demand_periods'], message: DEMAND_PERIODS_NEED_TIME_OF_USE });
    } else if (unit !== 'kVA/month' && unit !== 'kvarh') {
      violations.push({
        path: ['demand_periods'],
        message: `Only a kVA/month or kvarh item may have them; ${pricedPer}`,
      });
    }
  }
  if (item.demand_basis != null && unit !== 'kVA/month') {
    violations.push({ path: ['demand_basis'], message: `Only a kVA/month item may have one; ${pricedPer}` });
  }
  if (item.free_ratio != null && unit !== 'kvarh') {
    violations.push({ path: ['free_ratio'], message: `Only a kvarh item may have one; ${pricedPer}` });
  }
  for (const field of ['volume_share', 'max_kl'] as const) {
    if (item[field] != null && item.item_type_code !== 'SEWERAGE') {
      violations.push({ path: [field], message: 'Only a SEWERAGE item may have one' });
    }
  }
  return violations;
}
