import type { Decimal } from 'decimal.js';
import { badRequest } from '../../http/errors.ts';
import { MAX_MONEY } from '../../http/fields.ts';
import type { Bill } from './engine/index.ts';

const MAX_TEXT = '9,999,999,999,999.99';

const tooLarge = (period: string) =>
  badRequest(
    `${period}: the bill would exceed ${MAX_TEXT} in magnitude, beyond which amounts are not exact; price a shorter period or with lower prices`,
  );

const exceeds = (amount: number) => Math.abs(amount) > MAX_MONEY;

interface Amounts {
  lines: readonly { amount: number }[];
  subtotal: number;
  tax: number;
  total: number;
}

const anyExceeds = (amounts: Amounts) =>
  [amounts.subtotal, amounts.tax, amounts.total].some(exceeds) || amounts.lines.some((line) => exceeds(line.amount));

/**
 * 400 naming the month, or else the bill's period, whose amounts exceed MAX_MONEY. The
 * amounts are exact decimals rounded to the cent before they became numbers, and rounding to a
 * double keeps their order against a bound that is itself exact: checking the numbers is exact.
 */
export function assertExactBill(bill: Pick<Bill, 'lines' | 'subtotal' | 'tax' | 'total' | 'months'>, period: string) {
  const month = bill.months.find(anyExceeds);
  if (month) throw tooLarge(`month ${month.month}`);
  if (anyExceeds(bill)) throw tooLarge(period);
}

/** 400 naming the period when a sum of bills exceeds MAX_MONEY. */
export function assertExactSum(sum: Decimal, period: string) {
  if (sum.abs().greaterThan(MAX_MONEY)) throw tooLarge(period);
}
