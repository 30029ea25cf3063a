import { fillTiers } from './blocks.ts';
import { type Charge, chargeForSeason, METERED_BASES } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { millionthsToDecimal } from './money.ts';
import type { UsageSegment } from './usage.ts';

function meteredMicro(charge: Charge, segment: UsageSegment): number {
  switch (charge.basis) {
    case 'TOU':
      return segment.importByPeriodMicro[charge.period!];
    case 'EXPORT':
      return segment.exportMicro;
    case 'REACTIVE':
      return segment.kvarhMicro;
    default:
      return segment.importMicro;
  }
}

/** Prices kWh and kvarh per segment with the item of the segment's season, by its blocks when it has some. */
export function addEnergyCharges(book: LineBook, chargesByType: Map<string, Charge[]>, segments: UsageSegment[]): void {
  for (const group of chargesByType.values()) {
    if (!METERED_BASES.has(group[0]!.basis)) continue;
    const cumulativeByMonth = new Map<number, number>();
    for (const segment of segments) {
      const charge = chargeForSeason(group, segment.season);
      const micro = charge ? meteredMicro(charge, segment) : 0;
      const cumulative = cumulativeByMonth.get(segment.monthKey) ?? 0;
      cumulativeByMonth.set(segment.monthKey, cumulative + micro);
      if (!charge) continue;
      if (charge.tiers.length === 0) {
        book.add(charge, null, millionthsToDecimal(micro), charge.unitPrice);
        continue;
      }
      for (const share of fillTiers(charge.tiers, cumulative, micro)) {
        book.add(charge, share.tier.blockIndex, millionthsToDecimal(share.micro), share.tier.unitPrice);
      }
    }
  }
}
