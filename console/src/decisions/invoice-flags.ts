import type { InvoiceCheck } from '../api/models.ts';

type FlagCode = InvoiceCheck['flags'][number]['code'];

/** What each flag of an invoice check means, in words for someone who pays the bill. */
export const FLAG_EXPLANATIONS: Record<FlagCode, string> = {
  TOTAL_VARIANCE: "The invoice's total differs from the bill we computed by more than the tolerance.",
  LINE_VARIANCE: 'A charge on the invoice differs from the same charge on our bill by more than the tolerance.',
  UNMATCHED_LINE: 'A charge appears on one bill only: on the invoice and not on ours, or the other way round.',
  QUANTITY_MISMATCH: 'The energy (kWh) on the invoice differs from what the meter recorded.',
  PERIOD_OVERLAP:
    'Another invoice of this building and source covers some of the same days: they may be charged twice.',
  PERIOD_GAP: 'Some days between the previous invoice and this one are on no invoice.',
  ESTIMATED: 'The utility estimated the reading instead of reading the meter: expect a correction on a later invoice.',
  INCOMPLETE_DATA:
    'Our bill is incomplete (readings missing, or part of the period without a tariff): the comparison is not exact.',
  NO_TARIFF: 'No tariff applies to this period, so there is no computed bill to compare with.',
};

/** Text typed as money or a quantity, with a dot or a comma for decimals and spaces between thousands; NaN otherwise. */
export function parseAmount(text: string): number {
  const plain = text.replace(/[\s\u00a0]/g, '').replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(plain) ? Number(plain) : Number.NaN;
}

/** Adds money to the cent, without binary fractions creeping in. */
export const addCents = (amounts: number[]) => amounts.reduce((sum, a) => sum + Math.round(a * 100), 0) / 100;
