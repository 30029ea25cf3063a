import { type BillingMonth, billingMonths, createDayDescriber, seasonShares } from './calendar.ts';
import { type Charge, chargesByType } from './charges.ts';
import type { DemandPeaks } from './demand.ts';
import { createKvaBasis } from './demand-basis.ts';
import { addEnergyCharges } from './energy-charges.ts';
import { addFixedCharges } from './fixed-charges.ts';
import { type ChargeLine, LineBook } from './line-book.ts';
import type { Dec } from './money.ts';
import type { BillingContext } from './types.ts';
import type { Usage, UsageSegment } from './usage.ts';
import { billWarnings } from './warnings.ts';

/** One local month of the bill, before any rounding. */
export interface MonthCharges {
  month: BillingMonth;
  segments: UsageSegment[];
  lines: ChargeLine[];
  missingIntervals: number;
  /** The month's highest half-hour demand; null without readings. */
  maxKva: Dec | null;
  /** The highest half hour in the demand periods of the first kVA/month item; null without one. */
  chargeableKva: Dec | null;
}

export interface PricedUsage {
  months: MonthCharges[];
  /** DYNAMIC tariffs, and TOU energy the schedule could not place in a period. */
  approximate: boolean;
  warnings: string[];
}

/** How many intervals of the grid that starts at startMs begin in [fromMs, toMs). */
function intervalsStartingIn(startMs: number, intervalMs: number, fromMs: number, toMs: number): number {
  return Math.ceil((toMs - startMs) / intervalMs) - Math.ceil((fromMs - startMs) / intervalMs);
}

export function assertValidPeriod({ start, end, intervalMinutes }: BillingContext): void {
  if (!(end.getTime() > start.getTime())) throw new RangeError('end must be after start');
  if (!(intervalMinutes > 0)) throw new RangeError('intervalMinutes must be positive');
}

/** The bill's lines per local month, before any rounding (extensions §10, §11.5, §11.6), from its measured usage. */
export function collectCharges(input: BillingContext, usage: Usage): PricedUsage {
  assertValidPeriod(input);
  const startMs = input.start.getTime();
  const endMs = input.end.getTime();
  const timeZone = input.tariff.timezone;
  const describeDay = createDayDescriber(input.calendar);
  const charges = chargesByType(input.tariff.items);
  const demandWarnings = new Set<string>();
  const kvaBasis = createKvaBasis({
    demand: usage.demand,
    earlierDemand: usage.earlierDemand,
    notifiedMaxDemandKva: input.notifiedMaxDemandKva,
    warn: (warning) => demandWarnings.add(warning),
  });
  const shares = seasonShares(timeZone, describeDay, startMs, endMs);
  const firstKvaCharge = [...charges.values()]
    .flat()
    .filter((charge) => charge.basis === 'PER_KVA_MONTH')
    .sort((a, b) => a.position - b.position)[0];
  const intervalMs = input.intervalMinutes * 60_000;

  const months = billingMonths(timeZone, startMs, endMs).map((month): MonthCharges => {
    const ofMonth = <T extends { monthKey: number }>(parts: T[]) =>
      parts.filter((part) => part.monthKey === month.monthKey);
    const book = new LineBook();
    const segments = ofMonth(usage.segments);
    addEnergyCharges(book, charges, segments);
    addFixedCharges(book, charges, ofMonth(shares), kvaBasis);
    const expected = intervalsStartingIn(startMs, intervalMs, month.startMs, month.endMs);
    const hasReadings = usage.demand.has(month.monthKey);
    return {
      month,
      segments,
      lines: book.list(),
      missingIntervals: expected - (usage.coveredIntervalsByMonth.get(month.monthKey) ?? 0),
      maxKva: hasReadings ? usage.demand.monthMax(month.monthKey, null) : null,
      chargeableKva: chargeableKva(firstKvaCharge, usage.demand, month.monthKey),
    };
  });

  const hasTouCharges = [...charges.values()].some((group) => group[0]!.basis === 'TOU');
  return {
    months,
    approximate: input.tariff.tariff_type === 'DYNAMIC' || (hasTouCharges && usage.unclassifiedImportMicro > 0),
    warnings: [...billWarnings(input, { months, usage, charges, hasTouCharges }), ...demandWarnings],
  };
}

function chargeableKva(charge: Charge | undefined, demand: DemandPeaks, monthKey: number): Dec | null {
  return charge ? demand.monthMax(monthKey, charge.item.demand_periods) : null;
}
