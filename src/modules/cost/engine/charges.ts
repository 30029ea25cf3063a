import type { ItemTypeCode } from '../../tariffs/tariffs.model.ts';
import { Dec, toMillionths } from './money.ts';
import type { Period, PricingItem, Season, Utility } from './types.ts';

/** What a tariff item is charged on: WATER on the water volume, SEWERAGE on its share of it. */
export type ChargeBasis =
  | 'IMPORT'
  | 'TOU'
  | 'EXPORT'
  | 'REACTIVE'
  | 'WATER'
  | 'SEWERAGE'
  | 'PER_KVA_MONTH'
  | 'PER_DAY'
  | 'PER_MONTH';

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

export const METERED_BASES: ReadonlySet<ChargeBasis> = new Set([
  'IMPORT',
  'TOU',
  'EXPORT',
  'REACTIVE',
  'WATER',
  'SEWERAGE',
]);

/** Item types that mean nothing on an electricity meter's bill: never priced (extensions §12.1). */
const NON_ELECTRIC_TYPES: ReadonlySet<string> = new Set([
  'WATER_CONSUMPTION',
  'SEWERAGE',
  'EV_SESSION_FEE',
  'EV_MIN',
  'CARBON',
] satisfies ItemTypeCode[]);

/** The item types a water meter's bill prices by volume; besides them only per-day and per-month items (extensions §13.6). */
const WATER_BASES: ReadonlyMap<string, ChargeBasis> = new Map([
  ['WATER_CONSUMPTION', 'WATER'],
  ['SEWERAGE', 'SEWERAGE'],
] satisfies [ItemTypeCode, ChargeBasis][]);

/** Whether an item type means nothing on the utility's bill (priced per day or month, any type means something). */
function isForeign(item: PricingItem, utility: Utility): boolean {
  if (utility === 'electricity') return NON_ELECTRIC_TYPES.has(item.item_type_code);
  return !WATER_BASES.has(item.item_type_code) && !['day', 'month'].includes(unitOf(item));
}

/** The tariff's item types that mean nothing on the utility's bill, each once, in the order of its items. */
export function foreignTypes(items: PricingItem[], utility: Utility): string[] {
  return [...new Set(items.filter((item) => isForeign(item, utility)).map((item) => item.item_type_code))];
}

const unitOf = (item: PricingItem) => item.unit.trim().toLowerCase();

export const PERIOD_OF_TOU_ITEM: ReadonlyMap<string, Period> = new Map([
  ['TOU_PEAK_ENERGY', 'PEAK'],
  ['TOU_STANDARD_ENERGY', 'STANDARD'],
  ['TOU_OFF_PEAK_ENERGY', 'OFF_PEAK'],
] satisfies [ItemTypeCode, Period][]);

function basisOf(item: PricingItem, utility: Utility): ChargeBasis | null {
  if (isForeign(item, utility)) return null;
  const unit = unitOf(item);
  if (utility === 'water' && unit === 'kl') return WATER_BASES.get(item.item_type_code) ?? null;
  switch (unit) {
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

/** The charges of items kept by the read cache (one array until the tariff changes): made once per utility, with their Decimals. */
const chargesOfItems: Record<Utility, WeakMap<PricingItem[], Map<string, Charge[]>>> = {
  electricity: new WeakMap(),
  water: new WeakMap(),
};

/**
 * The tariff's priceable items grouped by item type; items without meaning for the utility are left
 * out. Made once per items array and shared: read it, never change it.
 */
export function chargesByType(items: PricingItem[], utility: Utility = 'electricity'): Map<string, Charge[]> {
  let charges = chargesOfItems[utility].get(items);
  if (!charges) {
    charges = groupCharges(items, utility);
    chargesOfItems[utility].set(items, charges);
  }
  return charges;
}

function groupCharges(items: PricingItem[], utility: Utility): Map<string, Charge[]> {
  const byType = new Map<string, Charge[]>();
  items.forEach((item, position) => {
    const basis = basisOf(item, utility);
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

/** Whether the charge is a kVA/month item charged on measured demand (not on the NMD). */
export function onMeasuredKva(charge: Charge): boolean {
  return charge.basis === 'PER_KVA_MONTH' && charge.item.demand_basis !== 'NMD';
}

/** Whether any of the tariff's items is charged on measured kVA demand. */
export function chargesMeasuredKva(items: PricingItem[], utility: Utility = 'electricity'): boolean {
  return [...chargesByType(items, utility).values()].some((group) => group.some(onMeasuredKva));
}

/** The item of the season, else the ALL_YEAR item, else the type's only item. */
export function chargeForSeason(group: Charge[], season: Season | null): Charge | undefined {
  return ofSeason(group, season) ?? ofSeason(group, 'ALL_YEAR') ?? singleOf(group);
}
