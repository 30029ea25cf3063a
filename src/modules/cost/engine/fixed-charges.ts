import type { SeasonShare } from './calendar.ts';
import { type Charge, chargeForSeason, METERED_BASES } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { DAY_MS } from './local-time.ts';
import { Dec } from './money.ts';

export interface FixedChargeContext {
  shares: SeasonShare[];
  maxKvaByMonth: Map<number, number>;
}

function quantityOf(charge: Charge, share: SeasonShare, maxKvaByMonth: Map<number, number>): Dec {
  const covered = new Dec(share.coveredMs);
  switch (charge.basis) {
    case 'PER_DAY':
      return covered.div(DAY_MS);
    case 'PER_MONTH':
      return covered.div(share.monthMs);
    default:
      return covered.times(maxKvaByMonth.get(share.monthKey) ?? 0).div(share.monthMs);
  }
}

/**
 * Per-day and per-month items, and per-kVA items on each month's maximum kVA, pro rata of the time
 * covered; each day's share is charged with the item of that day's season.
 */
export function addFixedCharges(
  book: LineBook,
  chargesByType: Map<string, Charge[]>,
  context: FixedChargeContext,
): void {
  for (const group of chargesByType.values()) {
    if (METERED_BASES.has(group[0]!.basis)) continue;
    for (const share of context.shares) {
      const charge = chargeForSeason(group, share.season);
      if (charge) book.add(charge, null, quantityOf(charge, share, context.maxKvaByMonth), charge.unitPrice);
    }
  }
}
