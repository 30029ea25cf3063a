import { createLocalClock, DAY_MS, MINUTE_MS } from '../../../lib/time-zone.ts';
import { TOU_PERIODS } from '../../tariffs/tariffs.model.ts';
import type { DescribeDay } from './calendar.ts';
import { calendarLookups } from './calendar-lookups.ts';
import { DemandMeter, type DemandPeaks } from './demand.ts';
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
  kvarhByPeriodMicro: Record<Period, number>;
  /** Imported energy of intervals the schedule gives no period. */
  unclassifiedMicro: number;
}

export interface Usage {
  segments: UsageSegment[];
  /** Each month's highest half-hour demand in the period. */
  demand: DemandPeaks;
  /** The same of the earlier readings (before the period). */
  earlierDemand: DemandPeaks;
  /** The meter's aligned intervals with at least one reading, by the local month of the reading. */
  coveredIntervalsByMonth: Map<number, number>;
}

/** The usage of the readings, in the tariff's calendar. */
export function measureReadings(input: PricingInput): Usage {
  const { describeDay, lookupPeriods } = calendarLookups(input.calendar);
  return measureUsage(input, describeDay, lookupPeriods);
}

function measureUsage(input: PricingInput, describeDay: DescribeDay, lookupPeriods: LookupPeriods): Usage {
  const toLocalMs = createLocalClock(input.tariff.timezone);
  const startMs = input.start.getTime();
  const endMs = input.end.getTime();
  const intervalMs = input.intervalMinutes * MINUTE_MS;
  const earlierDemand = new DemandMeter(describeDay, lookupPeriods, input.intervalMinutes);
  for (const reading of input.earlierReadings ?? []) {
    const utcMs = reading.ts.getTime();
    if (utcMs < startMs) earlierDemand.add(toLocalMs(utcMs), reading.kva);
  }
  const demand = new DemandMeter(describeDay, lookupPeriods, input.intervalMinutes);

  const segments: UsageSegment[] = [];
  const coveredIntervalsByMonth = new Map<number, number>();
  let segment: UsageSegment | undefined;
  let dayNumber = Number.NaN;
  let periods: PeriodsByMinute | null = null;
  let lastSlot = Number.NaN;

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
    const kvarhMicro = toMillionths(reading.kvarh);
    segment.importMicro += importMicro;
    segment.exportMicro += toMillionths(reading.export_kwh);
    segment.kvarhMicro += kvarhMicro;
    demand.add(localMs, reading.kva);

    // An interval takes the period of its start minute.
    const periodCode = periods ? periods[Math.floor((localMs - dayNumber * DAY_MS) / MINUTE_MS)]! : 0;
    if (periodCode > 0) {
      const period = TOU_PERIODS[periodCode - 1]!;
      segment.importByPeriodMicro[period] += importMicro;
      segment.kvarhByPeriodMicro[period] += kvarhMicro;
    } else segment.unclassifiedMicro += importMicro;

    // Readings are on the meter's grid of aligned intervals: one reading, one interval.
    const slot = Math.floor(utcMs / intervalMs);
    if (slot !== lastSlot) {
      lastSlot = slot;
      coveredIntervalsByMonth.set(segment.monthKey, (coveredIntervalsByMonth.get(segment.monthKey) ?? 0) + 1);
    }
  }
  return {
    segments,
    demand: demand.finish(),
    earlierDemand: earlierDemand.finish(),
    coveredIntervalsByMonth,
  };
}

export function newSegment(monthKey: number, season: Season | null): UsageSegment {
  return {
    monthKey,
    season,
    importMicro: 0,
    exportMicro: 0,
    kvarhMicro: 0,
    importByPeriodMicro: { PEAK: 0, STANDARD: 0, OFF_PEAK: 0 },
    kvarhByPeriodMicro: { PEAK: 0, STANDARD: 0, OFF_PEAK: 0 },
    unclassifiedMicro: 0,
  };
}
