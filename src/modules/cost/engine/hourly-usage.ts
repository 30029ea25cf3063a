import { createLocalClock, DAY_MS } from '../../../lib/time-zone.ts';
import { TOU_PERIODS } from '../../tariffs/tariffs.model.ts';
import { monthKeyOf } from './calendar.ts';
import { calendarLookups } from './calendar-lookups.ts';
import { type HalfHourDemand, peaksOf } from './demand.ts';
import { utilisationWindowStart } from './demand-basis.ts';
import { toMillionths } from './money.ts';
import type { LookupPeriods } from './tou.ts';
import type { BillingContext, DayType, Season } from './types.ts';
import { newSegment, type Usage, type UsageSegment } from './usage.ts';

const HOUR_MS = 3_600_000;
const MINUTES_PER_HOUR = 60;

/** A kind of local day: what decides its time-of-use periods. */
export interface DayClass {
  season: Season | null;
  dayType: DayType;
}

/**
 * How to group a meter's hourly aggregates so that they price exactly as its readings would: for
 * each UTC hour from `from` to the bill's end, a key naming its local month, day class and period.
 */
export interface HourlyPlan {
  /** The whole hours of the period, priced from the rollups; the readings price the rest of it. */
  hoursStart: Date;
  hoursEnd: Date;
  /** hoursStart, or the beginning of the 12 months a UTILISED_CAPACITY item looks back over. */
  from: Date;
  /** Hours since 1970 of `from`. */
  firstHour: number;
  /** The meter's intervals in an hour: the most readings of an hour that count as read intervals. */
  intervalsPerHour: number;
  /** Per hour from `from`: (local month - firstMonthKey) * 1024 + day class * 4 + period code. */
  hourKeys: number[];
  firstMonthKey: number;
  classes: DayClass[];
}

/** One group of hourly aggregates: a plan key, inside [start, end) or before it. */
export interface HourlyAggregate {
  key: number;
  in_period: boolean;
  /** Millionths of a kWh (of a kvarh). */
  import_micro: number;
  export_micro: number;
  kvarh_micro: number;
  readings: number;
  /** The highest kVA of a reading in the group. */
  max_kva: number;
}

const MONTH_FACTOR = 1024;
const CLASS_FACTOR = 4;
const MAX_CLASSES = MONTH_FACTOR / CLASS_FACTOR;

/** The period code of each local hour, or null when a period boundary falls inside an hour. */
function hourlyPeriods(lookupPeriods: LookupPeriods, dayClass: DayClass): number[] | null {
  const table = lookupPeriods(dayClass.season, dayClass.dayType);
  const codes: number[] = [];
  for (let hour = 0; hour < 24; hour += 1) {
    const code = table ? table[hour * MINUTES_PER_HOUR]! : 0;
    for (let minute = 1; table && minute < MINUTES_PER_HOUR; minute += 1) {
      if (table[hour * MINUTES_PER_HOUR + minute] !== code) return null;
    }
    codes.push(code);
  }
  return codes;
}

/**
 * Whether a bill can be priced from hourly aggregates over the whole hours of its period (the
 * readings of the partial hours at its edges are priced as they are), and how to group them. Null
 * when only the readings give the exact bill: no whole hour in the period, a zone whose offset is
 * not a whole number of hours (from the UTILISED_CAPACITY look-back on), a schedule with a boundary
 * inside an hour, or intervals that do not divide the hour. Readings are on the meter's grid (ingest
 * checks it), so a start and an end anywhere (to the millisecond) are fine. Under 30 minutes a half
 * hour's demand (a month's max_kva) is a mean of several readings, which the hourly maximum does not
 * give: such a meter's demand comes from the highest half hour of each key (`demandFromHalfHours`).
 */
export function planHourlyPricing(input: BillingContext): HourlyPlan | null {
  const timeZone = input.tariff.timezone;
  if (MINUTES_PER_HOUR % input.intervalMinutes !== 0) return null;
  const startMs = input.start.getTime();
  const hoursStart = Math.ceil(startMs / HOUR_MS) * HOUR_MS;
  const endMs = Math.floor(input.end.getTime() / HOUR_MS) * HOUR_MS;
  if (endMs <= hoursStart) return null;
  // A local midnight: off the hour only where the offset is not whole hours, which the loop refuses.
  const from = utilisationWindowStart(input)?.getTime() ?? hoursStart;

  const { describeDay, lookupPeriods } = calendarLookups(input.calendar);
  const toLocalMs = createLocalClock(timeZone);
  const firstMonthKey = monthKeyOf(timeZone, from);
  const plan: HourlyPlan = {
    hoursStart: new Date(hoursStart),
    hoursEnd: new Date(endMs),
    from: new Date(from),
    firstHour: from / HOUR_MS,
    intervalsPerHour: MINUTES_PER_HOUR / input.intervalMinutes,
    hourKeys: [],
    firstMonthKey,
    classes: [],
  };
  const classOfDay = new Map<number, { classId: number; monthKey: number }>();
  const periodsOfClass: number[][] = [];
  const classIds = new Map<string, number>();

  for (let utcMs = from; utcMs < endMs; utcMs += HOUR_MS) {
    const localMs = toLocalMs(utcMs);
    if ((localMs - utcMs) % HOUR_MS !== 0) return null;
    const dayNumber = Math.floor(localMs / DAY_MS);
    let day = classOfDay.get(dayNumber);
    if (!day) {
      const { season, dayType, monthKey } = describeDay(dayNumber);
      const key = `${season}|${dayType}`;
      let classId = classIds.get(key);
      if (classId === undefined) {
        const periods = hourlyPeriods(lookupPeriods, { season, dayType });
        if (!periods || plan.classes.length === MAX_CLASSES) return null;
        classId = plan.classes.length;
        classIds.set(key, classId);
        plan.classes.push({ season, dayType });
        periodsOfClass.push(periods);
      }
      day = { classId, monthKey };
      classOfDay.set(dayNumber, day);
    }
    const localHour = Math.floor((localMs - dayNumber * DAY_MS) / HOUR_MS);
    const period = periodsOfClass[day.classId]![localHour]!;
    plan.hourKeys.push((day.monthKey - firstMonthKey) * MONTH_FACTOR + day.classId * CLASS_FACTOR + period);
  }
  return plan;
}

function decodeKey(plan: HourlyPlan, key: number) {
  return {
    monthKey: plan.firstMonthKey + Math.floor(key / MONTH_FACTOR),
    classId: Math.floor((key % MONTH_FACTOR) / CLASS_FACTOR),
    period: key % CLASS_FACTOR,
  };
}

/** Whether the hourly maximum of the rollups is a half hour's demand: one reading per half hour or fewer. */
export function demandFromRollups(intervalMinutes: number): boolean {
  return intervalMinutes >= 30;
}

/**
 * A meter's highest half hour of a plan key (its month and period), among the half hours of the
 * period's whole hours (in_period) or of the look-back before its start: the sum of the readings'
 * kVA in millionths, and their count.
 */
export interface HalfHourPeak {
  key: number;
  in_period: boolean;
  sum_micro: number;
  count: number;
}

/**
 * The half-hour demands of a meter of intervals under 30 minutes (each the mean of its readings),
 * from the highest half hour of each plan key: the same peaks the readings' engine measures.
 */
export function demandFromHalfHours(plan: HourlyPlan, peaks: HalfHourPeak[]) {
  const demands: HalfHourDemand[] = [];
  const earlierDemands: HalfHourDemand[] = [];
  for (const peak of peaks) {
    const { monthKey, period } = decodeKey(plan, peak.key);
    (peak.in_period ? demands : earlierDemands).push({
      monthKey,
      code: period,
      sumMicro: peak.sum_micro,
      count: peak.count,
    });
  }
  return { demand: peaksOf(demands), earlierDemand: peaksOf(earlierDemands) };
}

function addTo(counts: Map<number, number>, key: number, count: number): void {
  counts.set(key, (counts.get(key) ?? 0) + count);
}

/** The usage the readings would measure, from their hourly aggregates grouped by the plan. */
export function usageFromHourly(plan: HourlyPlan, aggregates: HourlyAggregate[]): Usage {
  // Segments in time order: a month's seasons in the order their first hours come.
  const order = new Map<string, number>();
  let lastMonthAndClass = -1;
  for (const hourKey of plan.hourKeys) {
    // Consecutive hours mostly share their month and day class: decode only where they change.
    const monthAndClass = Math.floor(hourKey / CLASS_FACTOR);
    if (monthAndClass === lastMonthAndClass) continue;
    lastMonthAndClass = monthAndClass;
    const { monthKey, classId } = decodeKey(plan, hourKey);
    const key = `${monthKey}|${plan.classes[classId]!.season}`;
    if (!order.has(key)) order.set(key, order.size);
  }
  const segments = new Map<string, UsageSegment>();
  const coveredIntervalsByMonth = new Map<number, number>();
  const demands: HalfHourDemand[] = [];
  const earlierDemands: HalfHourDemand[] = [];

  for (const row of aggregates) {
    const { monthKey, classId, period } = decodeKey(plan, row.key);
    const demand = { monthKey, code: period, sumMicro: toMillionths(row.max_kva), count: 1 };
    if (!row.in_period) {
      earlierDemands.push(demand);
      continue;
    }
    demands.push(demand);
    const { season } = plan.classes[classId]!;
    const key = `${monthKey}|${season}`;
    let segment = segments.get(key);
    if (!segment) {
      segment = newSegment(monthKey, season);
      segments.set(key, segment);
    }
    segment.importMicro += row.import_micro;
    segment.exportMicro += row.export_micro;
    segment.kvarhMicro += row.kvarh_micro;
    if (period > 0) {
      segment.importByPeriodMicro[TOU_PERIODS[period - 1]!] += row.import_micro;
      segment.kvarhByPeriodMicro[TOU_PERIODS[period - 1]!] += row.kvarh_micro;
    } else segment.unclassifiedMicro += row.import_micro;
    addTo(coveredIntervalsByMonth, monthKey, row.readings);
  }
  const rank = (segment: UsageSegment) => order.get(`${segment.monthKey}|${segment.season}`) ?? 0;
  return {
    segments: [...segments.values()].sort((a, b) => rank(a) - rank(b)),
    demand: peaksOf(demands),
    earlierDemand: peaksOf(earlierDemands),
    coveredIntervalsByMonth,
  };
}

function sameSegment(a: UsageSegment, b: UsageSegment): boolean {
  return a.monthKey === b.monthKey && a.season === b.season;
}

/** Segments in time order, consecutive ones of the same month and season added together. */
function joinSegments(parts: UsageSegment[][]): UsageSegment[] {
  const joined: UsageSegment[] = [];
  for (const segment of parts.flat()) {
    const last = joined.at(-1);
    if (!last || !sameSegment(last, segment)) {
      joined.push({
        ...segment,
        importByPeriodMicro: { ...segment.importByPeriodMicro },
        kvarhByPeriodMicro: { ...segment.kvarhByPeriodMicro },
      });
      continue;
    }
    last.importMicro += segment.importMicro;
    last.exportMicro += segment.exportMicro;
    last.kvarhMicro += segment.kvarhMicro;
    last.unclassifiedMicro += segment.unclassifiedMicro;
    for (const period of TOU_PERIODS) {
      last.importByPeriodMicro[period] += segment.importByPeriodMicro[period];
      last.kvarhByPeriodMicro[period] += segment.kvarhByPeriodMicro[period];
    }
  }
  return joined;
}

/** The usage of a period from its parts in time order: the readings before its whole hours, the hours, the readings after. */
export function joinUsage(parts: Usage[]): Usage {
  const coveredIntervalsByMonth = new Map<number, number>();
  for (const part of parts) {
    for (const [monthKey, covered] of part.coveredIntervalsByMonth) addTo(coveredIntervalsByMonth, monthKey, covered);
  }
  return {
    segments: joinSegments(parts.map((part) => part.segments)),
    demand: parts.map((part) => part.demand).reduce((a, b) => a.with(b)),
    earlierDemand: parts.map((part) => part.earlierDemand).reduce((a, b) => a.with(b)),
    coveredIntervalsByMonth,
  };
}
