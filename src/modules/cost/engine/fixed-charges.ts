import { DAY_MS } from '../../../lib/time-zone.ts';
import type { SeasonShare } from './calendar.ts';
import { type Charge, chargeForSeason, METERED_BASES } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { Dec } from './money.ts';

/** The kVA a kVA/month item is charged on in a month. */
export type KvaBasis = (charge: Charge, monthKey: number) => Dec;

function quantityOf(charge: Charge, share: SeasonShare, kvaBasis: KvaBasis): Dec {
  const covered = new Dec(share.coveredMs);
  switch (charge.basis) {
    case 'PER_DAY':
      return covered.div(DAY_MS);
    case 'PER_MONTH':
      return covered.div(share.monthMs);
    default:
      return covered.times(kvaBasis(charge, share.monthKey)).div(share.monthMs);
  }
}

/**
 * Per-day and per-month items, and kVA/month items on their basis, pro rata of the time covered;
 * each day's share is charged with the item of that day's season.
 */
export function addFixedCharges(
  book: LineBook,
  chargesByType: Map<string, Charge[]>,
  shares: SeasonShare[],
  kvaBasis: KvaBasis,
): void {
  for (const group of chargesByType.values()) {
    if (METERED_BASES.has(group[0]!.basis)) continue;
    for (const share of shares) {
      const charge = chargeForSeason(group, share.season);
      if (charge) book.add(charge, null, quantityOf(charge, share, kvaBasis), charge.unitPrice);
    }
  }
}
