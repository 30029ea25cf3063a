import { DAY_MS, MINUTE_MS } from '../../../lib/time-zone.ts';
import { TOU_PERIODS } from '../../tariffs/tariffs.model.ts';
import type { DescribeDay } from './calendar.ts';
import { Dec, toMillionths, ZERO } from './money.ts';
import type { LookupPeriods } from './tou.ts';
import type { Period } from './types.ts';

const HALF_HOUR_MS = 30 * MINUTE_MS;

/** A half hour's demand as the sum (millionths of a kVA) and count of the readings averaged. */
interface HalfHour {
  sumMicro: number;
  count: number;
}

/** Per period code (0: no period, 1 + index in TOU_PERIODS), the month's highest half hour. */
type MonthPeaks = (HalfHour | undefined)[];

function isHigher(candidate: HalfHour, peak: HalfHour | undefined): boolean {
  return !peak || candidate.sumMicro * peak.count > peak.sumMicro * candidate.count;
}

function kvaOf(halfHour: HalfHour): Dec {
  return new Dec(halfHour.sumMicro).div(halfHour.count).div(1_000_000);
}

/** Keeps the half hour if it is the month's highest of its period. */
function recordPeak(peaksByMonth: Map<number, MonthPeaks>, monthKey: number, code: number, halfHour: HalfHour): void {
  let peaks = peaksByMonth.get(monthKey);
  if (!peaks) {
    peaks = [];
    peaksByMonth.set(monthKey, peaks);
  }
  if (isHigher(halfHour, peaks[code])) peaks[code] = halfHour;
}

/** A known half-hour demand of a month and period code: the mean of count readings summing sumMicro. */
export interface HalfHourDemand extends HalfHour {
  monthKey: number;
  code: number;
}

/** Peaks from known half-hour demands, each a candidate. */
export function peaksOf(demands: HalfHourDemand[]): DemandPeaks {
  const peaksByMonth = new Map<number, MonthPeaks>();
  for (const { monthKey, code, sumMicro, count } of demands)
    recordPeak(peaksByMonth, monthKey, code, { sumMicro, count });
  return new DemandPeaks(peaksByMonth);
}

/**
 * Half-hour demand (extensions §11.5): the mean kVA of a meter's readings in each aligned local
 * half hour, a reading counting in every half hour its interval covers (a 60-minute reading gives the
 * demand of both its half hours). Keeps each local month's highest half hour per TOU period.
 * Readings must come in ascending order.
 */
export class DemandMeter {
  private readonly peaksByMonth = new Map<number, MonthPeaks>();
  private key = Number.NaN;
  private sumMicro = 0;
  private count = 0;
  private readonly intervalMs: number;

  constructor(
    private readonly describeDay: DescribeDay,
    private readonly lookupPeriods: LookupPeriods,
    intervalMinutes: number,
  ) {
    this.intervalMs = intervalMinutes * MINUTE_MS;
  }

  /** A reading's kVA, at its local start time. */
  add(localMs: number, kva: number): void {
    const first = Math.floor(localMs / HALF_HOUR_MS);
    const last = Math.max(first, Math.ceil((localMs + this.intervalMs) / HALF_HOUR_MS) - 1);
    const kvaMicro = toMillionths(kva);
    for (let key = first; key <= last; key += 1) {
      if (key !== this.key) {
        this.flush();
        this.key = key;
      }
      this.sumMicro += kvaMicro;
      this.count += 1;
    }
  }

  /** The peaks of every month seen; call once, after the last reading. */
  finish(): DemandPeaks {
    this.flush();
    return new DemandPeaks(this.peaksByMonth);
  }

  private flush(): void {
    if (this.count === 0) return;
    const localStart = this.key * HALF_HOUR_MS;
    const dayNumber = Math.floor(localStart / DAY_MS);
    const day = this.describeDay(dayNumber);
    const periods = this.lookupPeriods(day.season, day.dayType);
    const code = periods ? periods[Math.floor((localStart - dayNumber * DAY_MS) / MINUTE_MS)]! : 0;
    recordPeak(this.peaksByMonth, day.monthKey, code, { sumMicro: this.sumMicro, count: this.count });
    this.sumMicro = 0;
    this.count = 0;
  }
}

/** Each month's highest half-hour demand, by TOU period. */
export class DemandPeaks {
  constructor(private readonly peaksByMonth: Map<number, MonthPeaks>) {}

  /** Whether the month has any reading. */
  has(monthKey: number): boolean {
    return this.peaksByMonth.has(monthKey);
  }

  /** The month's highest half hour in the periods (all, and half hours of no period, when null); 0 without readings. */
  monthMax(monthKey: number, periods: readonly Period[] | null | undefined): Dec {
    const peaks = this.peaksByMonth.get(monthKey) ?? [];
    const codes = periods ? periods.map((period) => TOU_PERIODS.indexOf(period) + 1) : [0, 1, 2, 3];
    let highest: HalfHour | undefined;
    for (const code of codes) {
      const peak = peaks[code];
      if (peak && isHigher(peak, highest)) highest = peak;
    }
    return highest ? kvaOf(highest) : ZERO;
  }

  /** The peaks of both, month by month and period by period. */
  with(other: DemandPeaks): DemandPeaks {
    const peaksByMonth = new Map<number, MonthPeaks>();
    for (const source of [this.peaksByMonth, other.peaksByMonth]) {
      for (const [monthKey, peaks] of source) {
        peaks.forEach((peak, code) => {
          if (peak) recordPeak(peaksByMonth, monthKey, code, peak);
        });
      }
    }
    return new DemandPeaks(peaksByMonth);
  }

  /** The highest monthMax of the `months` months ending with monthKey. */
  highestOver(monthKey: number, months: number, periods: readonly Period[] | null | undefined): Dec {
    let highest = ZERO;
    for (let key = monthKey - months + 1; key <= monthKey; key += 1) {
      highest = Dec.max(highest, this.monthMax(key, periods));
    }
    return highest;
  }
}
