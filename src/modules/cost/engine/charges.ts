import type { ItemTypeCode } from '../../tariffs/tariffs.model.ts';
import { Dec, toMillionths } from './money.ts';
import type { Period, PricingItem, Season } from './types.ts';

/** What a tariff item is charged on. */
export type ChargeBasis = 'IMPORT' | 'TOU' | 'EXPORT' | 'REACTIVE' | 'PER_KVA_MONTH' | 'PER_DAY' | 'PER_MONTH';

export interface Tier {
  blockIndex: number;
  /** Cumulative monthly quantity (millionths) where the tier ends. */
  upperMicro: number;
  unitPrice: Dec;
}

export interface Charge {
  item: PricingItem;
  /** Position of the item in the tariff; orders the bill's lines. */
  position: number;
  basis: ChargeBasis;
  period: Period | null;
  /** Signed: an export credit has a negative unit price. */
  unitPrice: Dec;
  /** Non-empty when the item is priced by its blocks. */
  tiers: Tier[];
}

export const METERED_BASES: ReadonlySet<ChargeBasis> = new Set(['IMPORT', 'TOU', 'EXPORT', 'REACTIVE']);

/** Item types that mean nothing on an electricity meter's bill: never priced (extensions §12.1). */
const NON_ELECTRIC_TYPES: ReadonlySet<string> = new Set([
  'WATER_CONSUMPTION',
  'EV_SESSION_FEE',
  'EV_MIN',
  'CARBON',
] satisfies ItemTypeCode[]);

/** The tariff's item types that mean nothing on an electricity bill, each once, in the order of its items. */
export function nonElectricTypes(items: PricingItem[]): string[] {
  return [...new Set(items.map((item) => item.item_type_code).filter((code) => NON_ELECTRIC_TYPES.has(code)))];
}

export const PERIOD_OF_TOU_ITEM: ReadonlyMap<string, Period> = new Map([
  ['TOU_PEAK_ENERGY', 'PEAK'],
  ['TOU_STANDARD_ENERGY', 'STANDARD'],
  ['TOU_OFF_PEAK_ENERGY', 'OFF_PEAK'],
] satisfies [ItemTypeCode, Period][]);

function basisOf(item: PricingItem): ChargeBasis | null {
  if (NON_ELECTRIC_TYPES.has(item.item_type_code)) return null;
  switch (item.unit.trim().toLowerCase()) {
    case 'kwh':
      if (item.item_type_code === ('EXPORTED_ENERGY' satisfies ItemTypeCode)) return 'EXPORT';
      return PERIOD_OF_TOU_ITEM.has(item.item_type_code) ? 'TOU' : 'IMPORT';
    case 'kvarh':
      return 'REACTIVE';
    case 'kva':
    case 'kva/month':
      return 'PER_KVA_MONTH';
    case 'day':
      return 'PER_DAY';
    case 'month':
      return 'PER_MONTH';
    default:
      return null;
  }
}

/**
 * Blocks in block_index order; the last tier also takes whatever lies beyond its upper limit,
 * so a tariff whose final tier is bounded still prices all of the energy.
 */
function tiersOf(item: PricingItem, sign: number): Tier[] {
  const blocks = [...item.blocks].sort((a, b) => a.block_index - b.block_index);
  return blocks.map((block, index) => ({
    blockIndex: block.block_index,
    upperMicro:
      block.upper_limit === null || index === blocks.length - 1
        ? Number.POSITIVE_INFINITY
        : toMillionths(Number(block.upper_limit)),
    unitPrice: new Dec(block.unit_price_cents).div(100).times(sign),
  }));
}

/** The charges of items kept by the read cache (one array until the tariff changes): made once, with their Decimals. */
const chargesOfItems = new WeakMap<PricingItem[], Map<string, Charge[]>>();

/**
 * The tariff's priceable items grouped by item type; items without meaning for electricity are left
 * out. Made once per items array and shared: read it, never change it.
 */
export function chargesByType(items: PricingItem[]): Map<string, Charge[]> {
  let charges = chargesOfItems.get(items);
  if (!charges) {
    charges = groupCharges(items);
    chargesOfItems.set(items, charges);
  }
  return charges;
}

function groupCharges(items: PricingItem[]): Map<string, Charge[]> {
  const byType = new Map<string, Charge[]>();
  items.forEach((item, position) => {
    const basis = basisOf(item);
    if (!basis) return;
    const sign = basis === 'EXPORT' ? -1 : 1;
    const charge: Charge = {
      item,
      position,
      basis,
      period: PERIOD_OF_TOU_ITEM.get(item.item_type_code) ?? null,
      unitPrice: new Dec(item.price).times(sign),
      tiers: METERED_BASES.has(basis) ? tiersOf(item, sign) : [],
    };
    const group = byType.get(item.item_type_code);
    if (group) group.push(charge);
    else byType.set(item.item_type_code, [charge]);
  });
  return byType;
}

function ofSeason(group: Charge[], season: Season | null): Charge | undefined {
  return season === null ? undefined : group.find((charge) => charge.item.season === season);
}

function singleOf(group: Charge[]): Charge | undefined {
  return group.length === 1 ? group[0] : undefined;
}

/** The item of the season, else the ALL_YEAR item, else the type's only item. */
export function chargeForSeason(group: Charge[], season: Season | null): Charge | undefined {
  return ofSeason(group, season) ?? ofSeason(group, 'ALL_YEAR') ?? singleOf(group);
}
