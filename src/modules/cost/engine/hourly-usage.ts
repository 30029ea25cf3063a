import { TOU_PERIODS } from '../../tariffs/tariff-enums.ts';
import { createDayDescriber, type DescribeDay, localDayNumber } from './calendar.ts';
import { chargesByType } from './charges.ts';
import { peaksOf } from './demand.ts';
import { utilisationWindowStart } from './demand-basis.ts';
import { DAY_MS, fromLocalMs, utcOffsetMs } from './local-time.ts';
import { createPeriodLookup, type LookupPeriods } from './tou.ts';
import type { BillingContext, DayType, Season } from './types.ts';
import type { Usage, UsageSegment } from './usage.ts';

const HOUR_MS = 3_600_000;
const MINUTES_PER_HOUR = 60;

/** A kind of local day: what decides its time-of-use periods. */
export interface DayClass {
  season: Season | null;
  dayType: DayType;
}

/**
 * How to group a meter's hourly aggregates so that they price exactly as its readings would: each
 * local date of [from, end) with its day class, and each class's period code by local hour
 * (0: no period, 1 + index in TOU_PERIODS).
 */
export interface HourlyPlan {
  /** start, or the beginning of the 12 months a UTILISED_CAPACITY item looks back over. */
  from: Date;
  dates: string[];
  dateClasses: number[];
  classes: DayClass[];
  hourClasses: number[];
  hours: number[];
  hourPeriods: number[];
}

/** One group of hourly aggregates: a local month, day class and period, inside [start, end) or before it. */
export interface HourlyAggregate {
  /** YYYY-MM, local. */
  month: string;
  class_id: number;
  period: number;
  in_period: boolean;
  /** Millionths of a kWh (of a kvarh). */
  import_micro: number;
  export_micro: number;
  kvarh_micro: number;
  readings: number;
  /** The highest kVA of a reading in the group. */
  max_kva: number;
}

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

function isoDate(dayNumber: number): string {
  return new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Whether a bill can be priced from hourly aggregates, and how to group them. Null when only the
 * readings give the exact bill: the period or the utilisation window not on whole hours, a zone whose
 * offset is not a whole number of hours, a schedule with a boundary inside an hour, intervals that
 * do not divide the hour, or kVA items on a meter whose half-hour demand is a mean of several readings.
 */
export function planHourlyPricing(input: BillingContext): HourlyPlan | null {
  const timeZone = input.tariff.timezone;
  const charges = [...chargesByType(input.tariff.items).values()].flat();
  const kvaCharges = charges.filter((charge) => charge.basis === 'PER_KVA_MONTH');
  if (MINUTES_PER_HOUR % input.intervalMinutes !== 0) return null;
  if (kvaCharges.length > 0 && input.intervalMinutes < 30) return null;
  const from = (utilisationWindowStart(input) ?? input.start).getTime();
  const endMs = input.end.getTime();
  if ([from, input.start.getTime(), endMs].some((ms) => ms % HOUR_MS !== 0)) return null;

  const describeDay: DescribeDay = createDayDescriber(input.calendar);
  const lookupPeriods = createPeriodLookup(input.calendar.schedule);
  const plan: HourlyPlan = {
    from: new Date(from),
    dates: [],
    dateClasses: [],
    classes: [],
    hourClasses: [],
    hours: [],
    hourPeriods: [],
  };
  const classIds = new Map<string, number>();
  const lastDay = localDayNumber(timeZone, endMs - 1);
  for (let day = localDayNumber(timeZone, from); day <= lastDay; day += 1) {
    if (utcOffsetMs(timeZone, fromLocalMs(timeZone, day * DAY_MS)) % HOUR_MS !== 0) return null;
    const { season, dayType } = describeDay(day);
    const key = `${season}|${dayType}`;
    let classId = classIds.get(key);
    if (classId === undefined) {
      const periods = hourlyPeriods(lookupPeriods, { season, dayType });
      if (!periods) return null;
      classId = plan.classes.length;
      classIds.set(key, classId);
      plan.classes.push({ season, dayType });
      periods.forEach((code, hour) => {
        plan.hourClasses.push(classId!);
        plan.hours.push(hour);
        plan.hourPeriods.push(code);
      });
    }
    plan.dates.push(isoDate(day));
    plan.dateClasses.push(classId);
  }
  if (utcOffsetMs(timeZone, endMs) % HOUR_MS !== 0) return null;
  return plan;
}

function monthKeyOfLabel(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

/** The usage the readings would measure, from their hourly aggregates grouped by the plan. */
export function usageFromHourly(plan: HourlyPlan, aggregates: HourlyAggregate[]): Usage {
  // Segments in time order: a month's seasons in the order their first days come.
  const order = new Map<string, number>();
  plan.dates.forEach((date, index) => {
    const key = `${monthKeyOfLabel(date)}|${plan.classes[plan.dateClasses[index]!]!.season}`;
    if (!order.has(key)) order.set(key, order.size);
  });
  const segments = new Map<string, UsageSegment>();
  const coveredIntervalsByMonth = new Map<number, number>();
  const demands: { monthKey: number; code: number; kva: number }[] = [];
  const earlierDemands: typeof demands = [];
  let unclassifiedImportMicro = 0;
  let hasKva = false;

  for (const row of aggregates) {
    const monthKey = monthKeyOfLabel(row.month);
    const demand = { monthKey, code: row.period, kva: row.max_kva };
    if (!row.in_period) {
      earlierDemands.push(demand);
      continue;
    }
    demands.push(demand);
    if (row.max_kva > 0) hasKva = true;
    const { season } = plan.classes[row.class_id]!;
    const key = `${monthKey}|${season}`;
    let segment = segments.get(key);
    if (!segment) {
      segment = {
        monthKey,
        season,
        importMicro: 0,
        exportMicro: 0,
        kvarhMicro: 0,
        importByPeriodMicro: { PEAK: 0, STANDARD: 0, OFF_PEAK: 0 },
      };
      segments.set(key, segment);
    }
    segment.importMicro += row.import_micro;
    segment.exportMicro += row.export_micro;
    segment.kvarhMicro += row.kvarh_micro;
    if (row.period > 0) segment.importByPeriodMicro[TOU_PERIODS[row.period - 1]!] += row.import_micro;
    else unclassifiedImportMicro += row.import_micro;
    coveredIntervalsByMonth.set(monthKey, (coveredIntervalsByMonth.get(monthKey) ?? 0) + row.readings);
  }
  const rank = (segment: UsageSegment) => order.get(`${segment.monthKey}|${segment.season}`) ?? 0;
  return {
    segments: [...segments.values()].sort((a, b) => rank(a) - rank(b)),
    unclassifiedImportMicro,
    demand: peaksOf(demands),
    earlierDemand: peaksOf(earlierDemands),
    hasKva,
    coveredIntervalsByMonth,
  };
}
