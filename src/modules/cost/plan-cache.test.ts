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

/** A plan cache of its own. */
function planCache() {
  return { planFor: createPlanCache() };
}

describe('the plan cache', () => {
  it('plans a period of one tariff object once, and anew for another period, interval or tariff object', async () => {
    const { planFor } = planCache();
    const june = context();
    const plan = (await planFor(june))!;
    expect(plan.hourKeys).toHaveLength(30 * 24);
    expect(await planFor({ ...june, start: new Date(june.start), end: new Date(june.end) })).toBe(plan);

    const july = (await planFor({ ...june, start: june.end, end: sast('2025-08-01T00:00') }))!;
    expect(july.hourKeys).toHaveLength(31 * 24);
    expect(await planFor({ ...june, intervalMinutes: 15 })).not.toBe(plan);
    // A changed tariff comes from the read cache as a new object.
    expect(await planFor({ ...june, tariff: homeflex() })).not.toBe(plan);
  });

  it('plans once the periods that share their whole hours, and anew when a whole hour comes or goes', async () => {
    const { planFor } = planCache();
    const june = context();
    const plan = (await planFor(june))!;
    const minutes = (date: Date, n: number) => new Date(date.getTime() + n * 60_000);
    // The edges' partial hours are priced from readings: the plan of the whole hours is the same.
    expect(await planFor({ ...june, start: minutes(june.start, -59), end: minutes(june.end, 59) })).toBe(plan);
    const hourLess = (await planFor({ ...june, end: minutes(june.end, -1) }))!;
    expect(hourLess).not.toBe(plan);
    expect(hourLess.hourKeys).toHaveLength(30 * 24 - 1);
    expect((await planFor({ ...june, start: minutes(june.start, 1) }))!.hourKeys).toHaveLength(30 * 24 - 1);
  });

  it('answers null for a period that cannot be planned hourly, and still plans the others', async () => {
    const { planFor } = planCache();
    const sevenMinutes = context({ intervalMinutes: 7 });
    expect(await planFor(sevenMinutes)).toBeNull();
    expect(await planFor(sevenMinutes)).toBeNull();
    expect(await planFor(context())).not.toBeNull();
  });

  it('makes a plan once for two callers who asked for it at once', async () => {
    const planFor = createPlanCache();
    const june = context();
    const [first, second] = [planFor(june), planFor({ ...june })];
    expect(await second).toBe(await first);
  });
});
