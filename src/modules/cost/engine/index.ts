import { assembleBill } from './bill.ts';
import {
  demandFromKva,
  type HourlyAggregate,
  type HourlyPlan,
  joinUsage,
  type KvaReadings,
  usageFromHourly,
} from './hourly-usage.ts';
import { assertValidPeriod, collectCharges } from './pricing.ts';
import type { Bill, BillingContext, PricingInput, Reading } from './types.ts';
import { measureReadings } from './usage.ts';

export { utilisationWindowStart } from './demand-basis.ts';
export {
  demandFromRollups,
  type HourlyAggregate,
  type HourlyPlan,
  type KvaReadings,
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
 * intervals under 30 minutes, the half-hour demands of the hours from its kVA readings
 * (demandFromRollups, demandFromKva). Pure.
 */
export function priceHourly(
  input: BillingContext,
  plan: HourlyPlan,
  aggregates: HourlyAggregate[],
  edgeReadings: Reading[],
  kvaReadings?: KvaReadings,
): Bill {
  assertValidPeriod(input);
  const edge = (from: Date, to: Date) =>
    measureReadings({ ...input, readings: edgeReadings.filter((r) => r.ts >= from && r.ts < to) });
  const hours = usageFromHourly(plan, aggregates);
  const usage = joinUsage([
    edge(input.start, plan.hoursStart),
    kvaReadings ? { ...hours, ...demandFromKva(input, plan, kvaReadings) } : hours,
    edge(plan.hoursEnd, input.end),
  ]);
  return assembleBill(input.tariff, collectCharges(input, usage));
}
