import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Executor } from '../../db/types.ts';
import { createVersionedResults } from '../../db/versioned-results.ts';
import { localDate, localMidnight } from '../../lib/local-dates.ts';
import { type CostMeterRow, costRepository as repo } from './cost.repository.ts';

/** The meters whose first reading is kept, the least recently asked for dropped first. */
const KEPT_FIRST_READINGS = 10_000;

export const NO_READINGS_YET = 'No readings yet';
export const billedFrom = (date: string) => `Billed from the meter's installation on ${date}`;

/** What of a period a meter's supply bills (extensions §13.2). */
export type SuppliedPeriod =
  /** All of it. */
  | { start: Date; end: Date; warning: null }
  /** From its installation on. */
  | { start: Date; end: Date; warning: string }
  /** None of it: the meter was installed after the period, or has neither readings nor installed_on. */
  | { start: null; end: null; warning: string; complete: boolean };

/**
 * When a meter's supply began: its installed_on, else the local date of its first reading (kept
 * until its readings change), midnight of that date in the bill's zone.
 */
export function createSupplyStart(db: Executor, cache: ReadCache) {
  const firstReadings = createVersionedResults<number | null>(KEPT_FIRST_READINGS, () => 1);

  async function installedOn(meter: CostMeterRow, timeZone: string): Promise<string | null> {
    if (meter.installed_on !== null) return meter.installed_on;
    const first = await firstReadings.get(
      [cache.version(cacheKeys.meterReadings(meter.id))],
      JSON.stringify([meter.account_id, meter.id]),
      () => repo.firstReadingMs(db, meter),
    );
    return first === null ? null : localDate(timeZone, first);
  }

  /** The part of [start, end) the meter's supply bills, in the zone of the bill's tariff. */
  return async function suppliedPart(
    meter: CostMeterRow,
    timeZone: string,
    start: Date,
    end: Date,
  ): Promise<SuppliedPeriod> {
    const date = await installedOn(meter, timeZone);
    if (date === null) return { start: null, end: null, warning: NO_READINGS_YET, complete: false };
    const from = localMidnight(timeZone, date);
    if (from <= start.getTime()) return { start, end, warning: null };
    if (from >= end.getTime()) return { start: null, end: null, warning: billedFrom(date), complete: true };
    return { start: new Date(from), end, warning: billedFrom(date) };
  };
}
