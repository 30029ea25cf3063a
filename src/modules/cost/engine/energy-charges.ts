import { TOU_PERIODS } from '../../tariffs/tariffs.model.ts';
import { fillTiers } from './blocks.ts';
import { type Charge, chargeForSeason, METERED_BASES, PERIOD_OF_TOU_ITEM, type Tier } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { Dec, millionthsToDecimal, toMillionths } from './money.ts';
import type { MonthNotes } from './month-notes.ts';
import type { Period, Utility } from './types.ts';
import type { UsageSegment } from './usage.ts';

const TOU_ITEM_OF_PERIOD = new Map([...PERIOD_OF_TOU_ITEM].map(([code, period]) => [period, code]));

const sumOf = (values: Record<Period, number>, periods: readonly Period[]) =>
  periods.reduce((total, period) => total + values[period], 0);

/** Millionths of the charge's unit it is priced on in the segment. */
function meteredMicro(charge: Charge, segment: UsageSegment): number {
  switch (charge.basis) {
    case 'TOU':
      return segment.importByPeriodMicro[charge.period!];
    case 'EXPORT':
      return segment.exportMicro;
    case 'REACTIVE':
      return chargeableKvarhMicro(charge, segment);
    case 'SEWERAGE':
      return sewageMicro(charge, segment);
    default:
      return segment.importMicro;
  }
}

/**
 * kvarh above free_ratio × the kWh of the same month and season (all of it without a free ratio);
 * with demand_periods, only the kvarh and kWh of those periods count (extensions §12.1).
 */
function chargeableKvarhMicro(charge: Charge, segment: UsageSegment): number {
  const { free_ratio: freeRatio, demand_periods: periods } = charge.item;
  const kvarhMicro = periods ? sumOf(segment.kvarhByPeriodMicro, periods) : segment.kvarhMicro;
  if (freeRatio === null || freeRatio === undefined) return kvarhMicro;
  const kwhMicro = periods ? sumOf(segment.importByPeriodMicro, periods) : segment.importMicro;
  const freeMicro = new Dec(freeRatio).times(kwhMicro).toNumber();
  return Math.max(0, kvarhMicro - freeMicro);
}

/** The share of the water volume a SEWERAGE item charges, to the millilitre (half up). */
function sewageMicro(charge: Charge, segment: UsageSegment): number {
  const share = charge.item.volume_share;
  if (share === null || share === undefined) return segment.importMicro;
  return new Dec(segment.importMicro).times(share).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber();
}

/**
 * Water's tiers and a sewerage cap are per 30-day month: a part month's are in proportion to its
 * days (scale), each bound to the millilitre (half up).
 */
const scaledMicro = (micro: number, scale: Dec) =>
  scale.eq(1) ? micro : new Dec(micro).times(scale).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber();

function tiersOfMonth(charge: Charge, scale: Dec): Tier[] {
  if (charge.basis !== 'WATER' && charge.basis !== 'SEWERAGE') return charge.tiers;
  return charge.tiers.map((tier) => ({ ...tier, upperMicro: scaledMicro(tier.upperMicro, scale) }));
}

/** The most a charge may take of the month's quantity: a SEWERAGE item's max_kl (in proportion for a part month). */
function monthCapMicro(charge: Charge, scale: Dec): number {
  const cap = charge.item.max_kl;
  if (charge.basis !== 'SEWERAGE' || cap === null || cap === undefined) return Number.POSITIVE_INFINITY;
  return scaledMicro(toMillionths(Number(cap)), scale);
}

/** The water volume no WATER_CONSUMPTION item prices. */
function addUncoveredWater(notes: MonthNotes, chargesByType: Map<string, Charge[]>, segment: UsageSegment): void {
  if ([...chargesByType.values()].some((group) => group[0]!.basis === 'WATER')) return;
  notes.addUnpriced('WATER_CONSUMPTION', segment.season, 'kL', millionthsToDecimal(segment.importMicro));
}

/**
 * Imported kWh that no item type prices at all: all of it when the tariff has no kWh item on
 * imported energy, a period's when time-of-use energy items lack that period (and no IMPORT_ENERGY
 * item prices every period).
 */
function addUncoveredEnergy(notes: MonthNotes, chargesByType: Map<string, Charge[]>, segment: UsageSegment): void {
  const groups = [...chargesByType.values()];
  const pricesImport = groups.some((group) => group[0]!.basis === 'IMPORT' || group[0]!.basis === 'TOU');
  if (!pricesImport) {
    notes.addUnpriced('IMPORT_ENERGY', segment.season, 'kWh', millionthsToDecimal(segment.importMicro));
    return;
  }
  const hasTou = groups.some((group) => group[0]!.basis === 'TOU');
  if (!hasTou || chargesByType.has('IMPORT_ENERGY')) return;
  for (const period of TOU_PERIODS) {
    const code = TOU_ITEM_OF_PERIOD.get(period)!;
    if (chargesByType.has(code)) continue;
    notes.addUnpriced(code, segment.season, 'kWh', millionthsToDecimal(segment.importByPeriodMicro[period]));
  }
}

/**
 * Prices one month's kWh and kvarh (or kL of water and sewage) per segment with the item of the
 * segment's season, by its blocks when it has some (the month's cumulative quantity fills the
 * tiers; water's in proportion to a part month's days, `scale` = days / 30, 1 for a whole month);
 * what no item prices is noted as unpriced.
 */
export function addEnergyCharges(
  book: LineBook,
  chargesByType: Map<string, Charge[]>,
  segments: UsageSegment[],
  notes: MonthNotes,
  { utility = 'electricity', scale = new Dec(1) }: { utility?: Utility; scale?: Dec } = {},
): void {
  const addUncovered = utility === 'water' ? addUncoveredWater : addUncoveredEnergy;
  for (const segment of segments) addUncovered(notes, chargesByType, segment);
  for (const group of chargesByType.values()) {
    if (!METERED_BASES.has(group[0]!.basis)) continue;
    let cumulative = 0;
    for (const segment of segments) {
      const charge = chargeForSeason(group, segment.season);
      if (!charge) {
        const { item } = group[0]!;
        notes.addUnpriced(
          item.item_type_code,
          segment.season,
          item.unit,
          millionthsToDecimal(meteredMicro(group[0]!, segment)),
        );
        continue;
      }
      const micro = Math.min(meteredMicro(charge, segment), Math.max(0, monthCapMicro(charge, scale) - cumulative));
      if (charge.tiers.length === 0) book.addMicro(charge, null, micro, charge.unitPrice);
      else {
        for (const share of fillTiers(tiersOfMonth(charge, scale), cumulative, micro)) {
          book.addMicro(charge, share.tier.blockIndex, share.micro, share.tier.unitPrice);
        }
      }
      cumulative += micro;
    }
  }
}
