import { groupByMonth, keptMonths } from '../../db/kept-months.ts';
import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database, Executor } from '../../db/types.ts';
import { createVersionedResults, type VersionedResults } from '../../db/versioned-results.ts';
import { type CostMeterRow, costRepository as repo } from './cost.repository.ts';
import type { Reading } from './engine/index.ts';
import type { HourColumns } from './hourly-groups.ts';
import { ReadingColumns } from './reading-columns.ts';

/**
 * The most UTC months of hourly rollups read from memory for one bill: a year-long period with the
 * 12 months a UTILISED_CAPACITY item looks back over, each cut by a month's edge. Longer ones are
 * summed by the database.
 */
const MAX_HOUR_MONTHS = 26;
/** The edges of a period lie in one month each, two at most when an edge hour crosses into the next. */
const MAX_READING_MONTHS = 2;
/** Meters' months of hourly rollups and of readings (the edges of periods), kept until their readings change. */
export interface KeptMeterMonths {
  hours: VersionedResults<HourColumns>;
  readings: VersionedResults<ReadingColumns>;
}

/** Each kind of month kept, taking at most maxBytes (KEPT_MONTHS_BYTES). */
export function createKeptMeterMonths(maxBytes: number): KeptMeterMonths {
  return {
    hours: createVersionedResults(maxBytes, (month: HourColumns) => month.bytes),
    readings: createVersionedResults(maxBytes, (month: ReadingColumns) => month.bytes),
  };
}

interface MeterHoursDeps extends KeptMeterMonths {
  db: Pick<Database, 'reads'>;
  cache: ReadCache;
}

/**
 * What bills are priced from, read by whole months and kept in memory until the meter's readings
 * change (here, or in another process once its notice arrives): periods of the same few months
 * are priced again and again (each dashboard's own month, sliding windows, comparisons), and
 * grouping a month's rows in memory costs far less than a round trip to the database for each.
 */
export function createMeterHours({ db, cache, hours, readings }: MeterHoursDeps) {
  /** The meter's months covering [from, to), each read by `read` and kept. */
  const kept = <Month>(
    results: VersionedResults<Month>,
    maxMonths: number,
    meter: CostMeterRow,
    [from, to]: [Date, Date],
    read: (db: Executor, accountId: string, meterId: number, from: Date, to: Date) => Promise<Month[]>,
  ) =>
    keptMonths(
      results,
      {
        tokens: [cache.version(cacheKeys.meterReadings(meter.id))],
        key: JSON.stringify([meter.account_id, meter.id]),
        maxMonths,
      },
      from.getTime(),
      to.getTime(),
      (runStart, runEnd) =>
        read(db.reads(cacheKeys.meterReadings(meter.id)), meter.account_id, meter.id, runStart, runEnd),
    );

  return {
    /**
     * The meter's hourly rollups of the months covering [from, to), by month, oldest first (as
     * groupHourlyRows takes them: it leaves out the hours outside a plan); null over more than
     * MAX_HOUR_MONTHS months.
     */
    hourlyMonths(meter: CostMeterRow, from: Date, to: Date): Promise<HourColumns[] | null> {
      return kept(hours, MAX_HOUR_MONTHS, meter, [from, to], repo.hourlyColumnsByMonth);
    },

    /** The meter's readings of [from, to), oldest first; null over more than MAX_READING_MONTHS months. */
    async readings(meter: CostMeterRow, from: Date, to: Date): Promise<Reading[] | null> {
      if (from >= to) return [];
      const months = await kept(
        readings,
        MAX_READING_MONTHS,
        meter,
        [from, to],
        async (db, accountId, meterId, runStart, runEnd) =>
          groupByMonth(
            await repo.readingRows(db, accountId, meterId, runStart, runEnd),
            (row) => row.ms,
            runStart,
            runEnd,
          ).map((rows) => new ReadingColumns(rows)),
      );
      return months?.flatMap((month) => month.within(from.getTime(), to.getTime())) ?? null;
    },
  };
}
