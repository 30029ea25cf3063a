import { type BillingContext, type HourlyPlan, planHourlyPricing } from './engine/index.ts';

const PERIODS_PER_TARIFF = 16;

/**
 * The hourly plans of recent periods, kept per tariff pricing object. The read cache hands every
 * request the same frozen pricing and calendar until the tariff changes, and a plan depends only on
 * them, the meter's interval and the period: the same month asked for again (a dashboard's, a
 * bill's) is planned once. A month's plan takes about 0.2 ms to make, a year's 1 to 2 ms.
 */
export function createPlanCache() {
  const plans = new WeakMap<BillingContext['tariff'], Map<string, HourlyPlan | null>>();
  return function planFor(context: BillingContext): HourlyPlan | null {
    let byPeriod = plans.get(context.tariff);
    if (!byPeriod) {
      byPeriod = new Map();
      plans.set(context.tariff, byPeriod);
    }
    const key = `${context.intervalMinutes}|${context.start.getTime()}|${context.end.getTime()}`;
    let plan = byPeriod.get(key);
    if (plan === undefined) {
      plan = planHourlyPricing(context);
      if (byPeriod.size >= PERIODS_PER_TARIFF) byPeriod.delete(byPeriod.keys().next().value!);
      byPeriod.set(key, plan);
    }
    return plan;
  };
}
