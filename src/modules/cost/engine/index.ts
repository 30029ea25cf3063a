import { assembleBill } from './bill.ts';
import { collectCharges } from './pricing.ts';
import type { Bill, PricingInput } from './types.ts';

export type * from './types.ts';

/** Prices one meter's readings over [start, end) with one tariff (extensions §10). Pure: no I/O. */
export function priceReadings(input: PricingInput): Bill {
  return assembleBill(input.tariff, collectCharges(input));
}
