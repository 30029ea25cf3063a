import { DAY_MS, fromLocalMs } from '../../../lib/time-zone.ts';
import type { Charge } from './charges.ts';
import { millionthsToNumber } from './money.ts';
import type { MonthCharges } from './pricing.ts';
import type { BillingContext } from './types.ts';
import type { Usage } from './usage.ts';

export interface WarningFacts {
  months: MonthCharges[];
  usage: Usage;
  charges: Map<string, Charge[]>;
  hasTouCharges: boolean;
}

function localMidnightMs(timeZone: string, isoDate: string): number {
  return fromLocalMs(timeZone, Date.parse(`${isoDate}T00:00:00Z`));
}

/** A part of [start, end) before effective_from or after effective_to (local dates, inclusive). */
function validityWarning({ tariff, start, end }: BillingContext): string | null {
  if (!tariff.effective_from || !tariff.effective_to) return null;
  const fromMs = localMidnightMs(tariff.timezone, tariff.effective_from);
  const toMs = localMidnightMs(tariff.timezone, tariff.effective_to) + DAY_MS;
  const [startMs, endMs] = [start.getTime(), end.getTime()];
  if (startMs >= fromMs && endMs <= toMs) return null;
  const extent = endMs <= fromMs || startMs >= toMs ? 'The period is' : 'Part of the period is';
  return `${extent} outside the tariff's effective dates (${tariff.effective_from} to ${tariff.effective_to})`;
}

/** What makes a bill less than a signed one (extensions §11.6); the NMD warnings come from the demand basis. */
export function billWarnings(input: BillingContext, { months, usage, charges, hasTouCharges }: WarningFacts): string[] {
  const warnings: string[] = [];
  const missing = months.reduce((sum, month) => sum + month.missingIntervals, 0);
  if (missing > 0) {
    const expected = missing + [...usage.coveredIntervalsByMonth.values()].reduce((sum, n) => sum + n, 0);
    warnings.push(`Missing readings: ${missing} of ${expected} intervals of the period have no reading`);
  }
  const validity = validityWarning(input);
  if (validity) warnings.push(validity);
  if (input.tariff.tariff_type === 'DYNAMIC') warnings.push('A DYNAMIC tariff is priced from its items, as if FLAT');
  if (hasTouCharges && usage.unclassifiedImportMicro > 0) {
    const kwh = millionthsToNumber(usage.unclassifiedImportMicro);
    warnings.push(`${kwh} kWh fall in no time-of-use period of the schedule and are not charged`);
  }
  if (!usage.hasKva) {
    const kvaCharged = [...charges.values()]
      .flat()
      .filter((charge) => charge.basis === 'PER_KVA_MONTH' && charge.item.demand_basis !== 'NMD');
    for (const code of new Set(kvaCharged.map((charge) => charge.item.item_type_code))) {
      warnings.push(`${code} is charged per kVA, but the meter has no kVA readings in the period: charged on 0 kVA`);
    }
  }
  return warnings;
}
