import { localMidnight } from '../../../lib/local-dates.ts';
import { DAY_MS } from '../../../lib/time-zone.ts';
import type { BillingMonth } from './calendar.ts';
import { millionthsToNumber } from './money.ts';
import type { MonthNotes } from './month-notes.ts';
import type { BillingContext, Utility } from './types.ts';

/** The part of the timeline the tariff's effective dates (local, inclusive) cover, and what a bill outside says. */
interface Validity {
  fromMs: number;
  toMs: number;
  warning: string;
}

/** Null when the whole of [start, end) lies within the tariff's effective dates (or it has none). */
export function validityOf({ tariff, start, end }: BillingContext): Validity | null {
  if (!tariff.effective_from || !tariff.effective_to) return null;
  const fromMs = localMidnight(tariff.timezone, tariff.effective_from);
  const toMs = localMidnight(tariff.timezone, tariff.effective_to) + DAY_MS;
  const [startMs, endMs] = [start.getTime(), end.getTime()];
  if (startMs >= fromMs && endMs <= toMs) return null;
  const extent = endMs <= fromMs || startMs >= toMs ? 'The period is' : 'Part of the period is';
  const warning = `${extent} outside the tariff's effective dates (${tariff.effective_from} to ${tariff.effective_to})`;
  return { fromMs, toMs, warning };
}

/** What a month of the bill says before its charges (extensions §11.6, §12.1). */
interface MonthFacts {
  month: BillingMonth;
  label: string;
  expectedIntervals: number;
  missingIntervals: number;
  validity: Validity | null;
  dynamic: boolean;
}

/** Its missing readings, the tariff's dates and type. */
export function noteMonth(notes: MonthNotes, facts: MonthFacts): void {
  const { month, label, expectedIntervals, missingIntervals, validity } = facts;
  if (expectedIntervals > 0 && missingIntervals === expectedIntervals) notes.lack(`No readings in ${label}`);
  else if (missingIntervals > 0) {
    notes.lack(`Missing readings: ${missingIntervals} of ${expectedIntervals} intervals of ${label} have no reading`);
  }
  if (validity && (month.startMs < validity.fromMs || month.endMs > validity.toMs)) notes.warn(validity.warning);
  if (facts.dynamic) notes.warn('A DYNAMIC tariff is priced from its items, as if FLAT');
}

/** Imported energy a time-of-use tariff cannot place in a period. */
export function noteUnclassified(notes: MonthNotes, unclassifiedMicro: number): void {
  if (unclassifiedMicro > 0) {
    const kwh = millionthsToNumber(unclassifiedMicro);
    notes.lack(`${kwh} kWh fall in no time-of-use period of the schedule: not priced`);
  }
}

/** Items whose type means nothing on the utility's bill. */
export function noteForeignItems(notes: MonthNotes, codes: string[], utility: Utility): void {
  const meter = utility === 'water' ? 'a water meter' : 'an electricity meter';
  for (const code of codes) notes.lack(`${code} items are not priced: the item type has no meaning for ${meter}`);
}

export const KVA_FROM_KW = 'kVA taken as kW: the readings carry no reactive energy';
