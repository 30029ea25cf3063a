import { DAY_MS } from '../../../lib/time-zone.ts';
import type { SeasonShare } from './calendar.ts';
import { type Charge, chargeForSeason, METERED_BASES, onMeasuredKva } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { Dec } from './money.ts';
import type { MonthNotes } from './month-notes.ts';

/** The kVA a kVA/month item is charged on in a month; warn hears what the figure lacks (a needed NMD). */
export type KvaBasis = (charge: Charge, monthKey: number, warn?: (text: string) => void) => Dec;

function quantityOf(charge: Charge, share: SeasonShare, kvaBasis: KvaBasis, notes?: MonthNotes): Dec {
  const covered = new Dec(share.coveredMs);
  switch (charge.basis) {
    case 'PER_DAY':
      return covered.div(DAY_MS);
    case 'PER_MONTH':
      return covered.div(share.monthMs);
    default:
      return covered.times(kvaBasis(charge, share.monthKey, notes && ((text) => notes.lack(text)))).div(share.monthMs);
  }
}

/**
 * Per-day and per-month items, and kVA/month items on their basis, pro rata of the time covered;
 * each day's share is charged with the item of that day's season, and what no item prices is noted
 * as unpriced. Whether a kVA/month item was charged on measured demand (not on the NMD).
 */
export function addFixedCharges(
  book: LineBook,
  chargesByType: Map<string, Charge[]>,
  shares: SeasonShare[],
  kvaBasis: KvaBasis,
  notes: MonthNotes,
): boolean {
  let measuredKva = false;
  for (const group of chargesByType.values()) {
    if (METERED_BASES.has(group[0]!.basis)) continue;
    for (const share of shares) {
      const charge = chargeForSeason(group, share.season);
      if (!charge) {
        const { item } = group[0]!;
        notes.addUnpriced(item.item_type_code, share.season, item.unit, quantityOf(group[0]!, share, kvaBasis));
        continue;
      }
      book.add(charge, null, quantityOf(charge, share, kvaBasis, notes), charge.unitPrice);
      if (onMeasuredKva(charge)) measuredKva = true;
    }
  }
  return measuredKva;
}
