import { fillTiers } from './blocks.ts';
import { type Charge, chargeForSeason, METERED_BASES } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { Dec, millionthsToDecimal } from './money.ts';
import type { UsageSegment } from './usage.ts';

/** Millionths of the charge's unit it is priced on in the segment. */
function meteredMicro(charge: Charge, segment: UsageSegment): number {
  switch (charge.basis) {
    case 'TOU':
      return segment.importByPeriodMicro[charge.period!];
    case 'EXPORT':
      return segment.exportMicro;
    case 'REACTIVE':
      return chargeableKvarhMicro(charge, segment);
    default:
      return segment.importMicro;
  }
}

/** kvarh above free_ratio × the kWh of the same month and season (all of it without a free ratio). */
function chargeableKvarhMicro(charge: Charge, segment: UsageSegment): number {
  const freeRatio = charge.item.free_ratio;
  if (freeRatio === null || freeRatio === undefined) return segment.kvarhMicro;
  const freeMicro = new Dec(freeRatio).times(segment.importMicro).toNumber();
  return Math.max(0, segment.kvarhMicro - freeMicro);
}

/**
 * Prices one month's kWh and kvarh per segment with the item of the segment's season, by its
 * blocks when it has some (the month's cumulative energy fills the tiers).
 */
export function addEnergyCharges(book: LineBook, chargesByType: Map<string, Charge[]>, segments: UsageSegment[]): void {
  for (const group of chargesByType.values()) {
    if (!METERED_BASES.has(group[0]!.basis)) continue;
    let cumulative = 0;
    for (const segment of segments) {
      const charge = chargeForSeason(group, segment.season);
      if (!charge) continue;
      const micro = meteredMicro(charge, segment);
      if (charge.tiers.length === 0) book.add(charge, null, millionthsToDecimal(micro), charge.unitPrice);
      else {
        for (const share of fillTiers(charge.tiers, cumulative, micro)) {
          book.add(charge, share.tier.blockIndex, millionthsToDecimal(share.micro), share.tier.unitPrice);
        }
      }
      cumulative += micro;
    }
  }
}
