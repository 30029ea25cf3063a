import type { Decimal } from 'decimal.js';
import { badRequest } from '../../http/errors.ts';
import type { Bill } from './engine/index.ts';

/**
 * The largest amount a bill answers, in magnitude. An amount to the cent up to it has at most 15
 * significant digits, so the JSON number (a double) gives back that very cent. Beyond 2^53 cents
 * a double holds no cent at all, and already from 10^13 on about a third of the amounts to the
 * cent would come back as a neighbouring cent.
 */
const MAX_EXACT_AMOUNT = 9_999_999_999_999.99;
const MAX_TEXT = '9,999,999,999,999.99';

const tooLarge = (period: string) =>
  badRequest(
    `${period}: the bill would exceed ${MAX_TEXT} in magnitude, beyond which amounts are not exact; price a shorter period or with lower prices`,
  );

const exceeds = (amount: number) => Math.abs(amount) > MAX_EXACT_AMOUNT;

interface Amounts {
  lines: readonly { amount: number }[];
  subtotal: number;
  tax: number;
  total: number;
}

const anyExceeds = (amounts: Amounts) =>
  [amounts.subtotal, amounts.tax, amounts.total].some(exceeds) || amounts.lines.some((line) => exceeds(line.amount));

/**
 * 400 naming the month, or else the bill's period, whose amounts exceed MAX_EXACT_AMOUNT. The
 * amounts are exact decimals rounded to the cent before they became numbers, and rounding to a
 * double keeps their order against a bound that is itself exact: checking the numbers is exact.
 */
export function assertExactBill(bill: Pick<Bill, 'lines' | 'subtotal' | 'tax' | 'total' | 'months'>, period: string) {
  const month = bill.months.find(anyExceeds);
  if (month) throw tooLarge(`month ${month.month}`);
  if (anyExceeds(bill)) throw tooLarge(period);
}

/** 400 naming the period when a sum of bills exceeds MAX_EXACT_AMOUNT. */
export function assertExactSum(sum: Decimal, period: string) {
  if (sum.abs().greaterThan(MAX_EXACT_AMOUNT)) throw tooLarge(period);
}
