import { TOU_PERIODS } from '../../tariffs/tariff-enums.ts';
import type { DescribeDay } from './calendar.ts';
import { createLocalClock, DAY_MS, MINUTE_MS } from './local-time.ts';
import { toMillionths } from './money.ts';
import type { LookupPeriods, PeriodsByMinute } from './tou.ts';
import type { Period, PricingInput, Season } from './types.ts';

/** Consecutive readings of one local month and one season, summed (metered values in millionths). */
export interface UsageSegment {
  monthKey: number;
  season: Season | null;
  importMicro: number;
  exportMicro: number;
  kvarhMicro: number;
  importByPeriodMicro: Record<Period, number>;
  maxKva: number;
}

export interface Usage {
  segments: UsageSegment[];
  importMicro: number;
  exportMicro: number;
  kvarhMicro: number;
  /** Imported energy of intervals the schedule gives no period. */
  unclassifiedImportMicro: number;
  maxKva: number | null;
  maxKvaByMonth: Map<number, number>;
  missingIntervals: number;
}

export function measureUsage(input: PricingInput, describeDay: DescribeDay, lookupPeriods: LookupPeriods): Usage {
  const toLocalMs = createLocalClock(input.tariff.timezone);
  const startMs = input.start.getTime();
  const endMs = input.end.getTime();
  const intervalMs = input.intervalMinutes * MINUTE_MS;
  const segments: UsageSegment[] = [];
  let segment: UsageSegment | undefined;
  let dayNumber = Number.NaN;
  let periods: PeriodsByMinute | null = null;
  let unclassifiedImportMicro = 0;
  let lastSlot = -1;
  let coveredSlots = 0;

  for (const reading of input.readings) {
    const utcMs = reading.ts.getTime();
    if (utcMs < startMs || utcMs >= endMs) continue;
    const localMs = toLocalMs(utcMs);
    const readingDay = Math.floor(localMs / DAY_MS);
    if (readingDay !== dayNumber || !segment) {
      dayNumber = readingDay;
      const day = describeDay(dayNumber);
      periods = lookupPeriods(day.season, day.dayType);
      if (!segment || segment.monthKey !== day.monthKey || segment.season !== day.season) {
        segment = newSegment(day.monthKey, day.season);
        segments.push(segment);
      }
    }
    const importMicro = toMillionths(reading.import_kwh);
    segment.importMicro += importMicro;
    segment.exportMicro += toMillionths(reading.export_kwh);
    segment.kvarhMicro += toMillionths(reading.kvarh);
    if (reading.kva > segment.maxKva) segment.maxKva = reading.kva;

    // An interval takes the period of its start minute.
    const periodCode = periods ? periods[Math.floor((localMs - dayNumber * DAY_MS) / MINUTE_MS)]! : 0;
    if (periodCode > 0) segment.importByPeriodMicro[TOU_PERIODS[periodCode - 1]!] += importMicro;
    else unclassifiedImportMicro += importMicro;

    const slot = Math.floor((utcMs - startMs) / intervalMs);
    if (slot !== lastSlot) {
      lastSlot = slot;
      coveredSlots += 1;
    }
  }
  return summarize(segments, unclassifiedImportMicro, Math.ceil((endMs - startMs) / intervalMs) - coveredSlots);
}

function newSegment(monthKey: number, season: Season | null): UsageSegment {
  return {
    monthKey,
    season,
    importMicro: 0,
    exportMicro: 0,
    kvarhMicro: 0,
    importByPeriodMicro: { PEAK: 0, STANDARD: 0, OFF_PEAK: 0 },
    maxKva: Number.NEGATIVE_INFINITY,
  };
}

function summarize(segments: UsageSegment[], unclassifiedImportMicro: number, missingIntervals: number): Usage {
  const usage: Usage = {
    segments,
    importMicro: 0,
    exportMicro: 0,
    kvarhMicro: 0,
    unclassifiedImportMicro,
    maxKva: null,
    maxKvaByMonth: new Map(),
    missingIntervals,
  };
  for (const segment of segments) {
    usage.importMicro += segment.importMicro;
    usage.exportMicro += segment.exportMicro;
    usage.kvarhMicro += segment.kvarhMicro;
    usage.maxKva = Math.max(usage.maxKva ?? segment.maxKva, segment.maxKva);
    const monthMax = usage.maxKvaByMonth.get(segment.monthKey) ?? segment.maxKva;
    usage.maxKvaByMonth.set(segment.monthKey, Math.max(monthMax, segment.maxKva));
  }
  return usage;
}
