import { firstAtOrAfter, groupByMonth, keptMonths } from '../../db/kept-months.ts';
import { cacheKeys, type ReadCache } from '../../db/read-cache.ts';
import type { Database } from '../../db/types.ts';
import type { VersionedResults } from '../../db/versioned-results.ts';
import type { TimeRange } from './aggregates.repository.ts';
import { energyValuesJson } from './energy-points.ts';
import { readingsRepository } from './readings.repository.ts';
import { energyFlows } from './totals.ts';

const MINUTE_MS = 60_000;

/** What the JSON of a reading's energies takes in memory, about. */
const JSON_BYTES_PER_READING = 96;

/** A profile over more UTC months than this is added up by the database (rollups serve it better). */
const MAX_MONTHS_PER_PROFILE = 3;

/** One meter's readings of one UTC month, oldest first: times (ms) and energies in micro-units. */
export class MonthOfReadings {
  constructor(
    readonly times: Float64Array,
    readonly imported: Float64Array,
    readonly exported: Float64Array,
    readonly uvarh: Float64Array,
  ) {}

  /** What it holds in memory, about, with the JSON of each reading's energies once made (readingJson). */
  get bytes(): number {
    return 64 + this.times.length * (4 * Float64Array.BYTES_PER_ELEMENT + JSON_BYTES_PER_READING);
  }

  /** The index of the first reading at or after time. */
  firstFrom(time: number): number {
    return firstAtOrAfter(this.times.length, (index) => this.times[index]!, time);
  }
}

/** The text of a month of readingsRepository.energyMicrosByMonth as a month of readings. */
function parseMonth(text: string | null): MonthOfReadings {
  const values = text ? text.split(',') : [];
  const count = values.length / 4;
  const month = new MonthOfReadings(
    new Float64Array(count),
    new Float64Array(count),
    new Float64Array(count),
    new Float64Array(count),
  );
  for (let i = 0, at = 0; i < count; i++, at += 4) {
    month.times[i] = Number(values[at]);
    month.imported[i] = Number(values[at + 1]);
    month.exported[i] = Number(values[at + 2]);
    month.uvarh[i] = Number(values[at + 3]);
  }
  return month;
}

/** Per month of readings, each reading's energies as JSON (energyValuesJson), made when first asked for. */
const readingsJson = new WeakMap<MonthOfReadings, (string | undefined)[]>();

function readingJson(month: MonthOfReadings, index: number): string {
  let json = readingsJson.get(month);
  if (!json) {
    json = [];
    readingsJson.set(month, json);
  }
  json[index] ??= energyValuesJson(energyFlows(month.imported[index]!, month.exported[index]!, month.uvarh[index]!));
  return json[index];
}

interface MeterMonthsDeps {
  db: Pick<Database, 'reads'>;
  cache: ReadCache;
  /** Months of readings, kept until the meter's readings change. */
  months: VersionedResults<MonthOfReadings>;
}

/**
 * Profiles of one meter added up from its months of readings kept in memory (each loaded once,
 * kept until its readings change, here or in another process): a dashboard asks for many periods
 * of the same few months, and adding up a month's readings in memory costs far less than asking
 * the database again.
 */
export function createMeterMonths({ db, cache, months }: MeterMonthsDeps) {
  return {
    /**
     * The meter's energies (their energyValuesJson) in each bucket of `minutes` counted from
     * range.start that has readings (undefined in the others), by bucket index: the totals aggregatesRepository.profile
     * gives for ENERGY_FLOWS. Null when the range spans more than MAX_MONTHS_PER_PROFILE months,
     * or when a bucket's sum is beyond the exact integers of a double (the database adds those).
     */
    async energyValues(
      accountId: string,
      meterId: number,
      range: TimeRange,
      minutes: number,
    ): Promise<(string | undefined)[] | null> {
      const [start, end] = [range.start.getTime(), range.end.getTime()];
      const tokens = [cache.version(cacheKeys.meterReadings(meterId))];
      const key = JSON.stringify([accountId, meterId]);
      const loaded = await keptMonths(
        months,
        { tokens, key, maxMonths: MAX_MONTHS_PER_PROFILE },
        start,
        end,
        async (from, to) =>
          groupByMonth(
            await readingsRepository.energyMicrosByMonth(
              db.reads(cacheKeys.meterReadings(meterId)),
              accountId,
              meterId,
              from,
              to,
            ),
            (row) => row.month_ms,
            from,
            to,
          ).map(([month]) => parseMonth(month?.values ?? null)),
      );
      if (!loaded) return null;
      const widthMs = minutes * MINUTE_MS;
      const count = Math.ceil((end - start) / widthMs);
      const [imported, exported, uvarh] = [new Float64Array(count), new Float64Array(count), new Float64Array(count)];
      // Per bucket: how many readings, and the last one's place (month, index).
      const readings = new Uint32Array(count);
      const lastMonth = new Uint8Array(count);
      const lastIndex = new Uint32Array(count);
      loaded.forEach((readingsOfMonth, m) => {
        const { times } = readingsOfMonth;
        for (let i = readingsOfMonth.firstFrom(start); i < times.length && times[i]! < end; i++) {
          const bucket = Math.floor((times[i]! - start) / widthMs);
          imported[bucket]! += readingsOfMonth.imported[i]!;
          exported[bucket]! += readingsOfMonth.exported[i]!;
          uvarh[bucket]! += readingsOfMonth.uvarh[i]!;
          readings[bucket]! += 1;
          lastMonth[bucket] = m;
          lastIndex[bucket] = i;
        }
      });
      const values = new Array<string | undefined>(count);
      for (let bucket = 0; bucket < count; bucket++) {
        if (readings[bucket] === 0) continue;
        if (readings[bucket] === 1) {
          values[bucket] = readingJson(loaded[lastMonth[bucket]!]!, lastIndex[bucket]!);
          continue;
        }
        const [i, e, q] = [imported[bucket]!, exported[bucket]!, uvarh[bucket]!];
        // Energies are never negative: a sum within the safe integers was added exactly.
        if (Math.max(i, e, q) > Number.MAX_SAFE_INTEGER) return null;
        values[bucket] = energyValuesJson(energyFlows(i, e, q));
      }
      return values;
    },
  };
}
