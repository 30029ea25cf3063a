import type { MonthShare } from './calendar.ts';
import { type Charge, chargeForPeriod, METERED_BASES } from './charges.ts';
import type { LineBook } from './line-book.ts';
import { DAY_MS } from './local-time.ts';
import { Dec, ZERO } from './money.ts';
import type { Season } from './types.ts';

export interface FixedChargeContext {
  startMs: number;
  endMs: number;
  /** Season of the local date the period starts on. */
  startSeason: Season | null;
  months: MonthShare[];
  maxKvaByMonth: Map<number, number>;
}

function quantityOf(charge: Charge, context: FixedChargeContext): Dec {
  switch (charge.basis) {
    case 'PER_DAY':
      return new Dec(context.endMs - context.startMs).div(DAY_MS);
    case 'PER_MONTH':
      return context.months.reduce((sum, month) => sum.plus(month.fraction), ZERO);
    default:
      return context.months.reduce(
        (sum, month) => sum.plus(new Dec(context.maxKvaByMonth.get(month.monthKey) ?? 0).times(month.fraction)),
        ZERO,
      );
  }
}

/** Per-day and per-month items, and per-kVA items on each month's maximum kVA, pro rata of the time covered. */
export function addFixedCharges(
  book: LineBook,
  chargesByType: Map<string, Charge[]>,
  context: FixedChargeContext,
): void {
  for (const group of chargesByType.values()) {
    if (METERED_BASES.has(group[0]!.basis)) continue;
    const charge = chargeForPeriod(group, context.startSeason);
    if (charge) book.add(charge, null, quantityOf(charge, context), charge.unitPrice);
  }
}
