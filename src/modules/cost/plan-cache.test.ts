import { describe, expect, it } from 'vitest';
import { eskomCalendar, HOMEFLEX_ENERGY, sast, tariff } from '../../../test/helpers/pricing-fixtures.ts';
import type { BillingContext } from './engine/index.ts';
import { createPlanCache } from './plan-cache.ts';

const homeflex = () => tariff(HOMEFLEX_ENERGY, { tariff_type: 'TIME_OF_USE' });
const context = (overrides: Partial<BillingContext> = {}): BillingContext => ({
  tariff: homeflex(),
  calendar: eskomCalendar(),
  start: sast('2025-06-01T00:00'),
  end: sast('2025-07-01T00:00'),
  intervalMinutes: 30,
  ...overrides,
});

describe('the plan cache', () => {
  it('plans a period of one tariff object once, and anew for another period, interval or tariff object', () => {
    const planFor = createPlanCache();
    const june = context();
    const plan = planFor(june)!;
    expect(plan.hourKeys).toHaveLength(30 * 24);
    expect(planFor({ ...june, start: new Date(june.start), end: new Date(june.end) })).toBe(plan);

    const july = planFor({ ...june, start: june.end, end: sast('2025-08-01T00:00') })!;
    expect(july.hourKeys).toHaveLength(31 * 24);
    expect(planFor({ ...june, intervalMinutes: 15 })).not.toBe(plan);
    // A changed tariff comes from the read cache as a new object.
    expect(planFor({ ...june, tariff: homeflex() })).not.toBe(plan);
  });

  it('answers null for a period that cannot be planned hourly, and still plans the others', () => {
    const planFor = createPlanCache();
    const sevenMinutes = context({ intervalMinutes: 7 });
    expect(planFor(sevenMinutes)).toBeNull();
    expect(planFor(sevenMinutes)).toBeNull();
    expect(planFor(context())).not.toBeNull();
  });
});
