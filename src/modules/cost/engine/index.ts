import { assembleBill } from './bill.ts';
import {
  demandFromHalfHours,
  type HalfHourPeak,
  type HourlyAggregate,
  type HourlyPlan,
  joinUsage,
  usageFromHourly,
} from './hourly-usage.ts';
import { assertValidPeriod, collectCharges } from './pricing.ts';
import type { Bill, BillingContext, PricingInput, Reading } from './types.ts';
import { measureReadings } from './usage.ts';

export { type BillingMonth, billingMonths } from './calendar.ts';
export { chargesMeasuredKva } from './charges.ts';
export { utilisationWindowStart } from './demand-basis.ts';
export {
  demandFromRollups,
  type HalfHourPeak,
  type HourlyAggregate,
  type HourlyPlan,
  planHourlyPricing,
} from './hourly-usage.ts';
export type * from './types.ts';

/** Prices one meter's readings over [start, end) with one tariff (extensions §10, §11.5, §11.6). Pure: no I/O. */
export function priceReadings(input: PricingInput): Bill {
  assertValidPeriod(input);
  return assembleBill(input.tariff, collectCharges(input, measureReadings(input)));
}

/**
 * The same bill from the meter's hourly aggregates of the period's whole hours, grouped as `plan`
 * says (see planHourlyPricing), and its readings of the partial hours at the edges; for a meter of
 * intervals under 30 minutes, the demands from the highest half hour of each plan key
 * (demandFromRollups, demandFromHalfHours). Pure.
 */
export function priceHourly(
  input: BillingContext,
  plan: HourlyPlan,
  aggregates: HourlyAggregate[],
  edgeReadings: Reading[],
  halfHourPeaks?: HalfHourPeak[],
): Bill {
  assertValidPeriod(input);
  const edge = (from: Date, to: Date) =>
    measureReadings({ ...input, readings: edgeReadings.filter((r) => r.ts >= from && r.ts < to) });
  const hours = usageFromHourly(plan, aggregates);
  const usage = joinUsage([
    edge(input.start, plan.hoursStart),
    halfHourPeaks ? { ...hours, ...demandFromHalfHours(plan, halfHourPeaks) } : hours,
    edge(plan.hoursEnd, input.end),
  ]);
  return assembleBill(input.tariff, collectCharges(input, usage));
}
