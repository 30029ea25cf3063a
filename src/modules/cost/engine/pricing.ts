import { DAY_MS } from '../../../lib/time-zone.ts';
import { type BillingMonth, billingMonths, monthLabel, type SeasonShare, seasonShares } from './calendar.ts';
import { calendarLookups } from './calendar-lookups.ts';
import { type Charge, chargesByType, foreignTypes } from './charges.ts';
import { createKvaBasis } from './demand-basis.ts';
import { addEnergyCharges } from './energy-charges.ts';
import { addFixedCharges } from './fixed-charges.ts';
import { type ChargeLine, LineBook } from './line-book.ts';
import { Dec } from './money.ts';
import { MonthNotes } from './month-notes.ts';
import type { BillingContext, Utility } from './types.ts';
import type { Usage, UsageSegment } from './usage.ts';
import { KVA_FROM_KW, noteForeignItems, noteMonth, noteUnclassified, validityOf } from './warnings.ts';

/** A month's demand figures (extensions §12.1); null where the month or tariff has none. */
export interface MonthDemand {
  /** The month's highest half-hour demand; null without readings. */
  maxKva: Dec | null;
  /** The highest half hour in the demand periods of the NETWORK_DEMAND kVA/month item, else of the first MONTH_MAX one. */
  chargeableKva: Dec | null;
  /** The UTILISED_CAPACITY basis. */
  utilisedKva: Dec | null;
  nmdKva: Dec | null;
  /** The EXCESS basis. */
  excessKva: Dec | null;
}

/** One local month of the bill, before any rounding. */
export interface MonthCharges {
  month: BillingMonth;
  segments: UsageSegment[];
  lines: ChargeLine[];
  missingIntervals: number;
  demand: MonthDemand;
  warnings: string[];
  /** Nothing missing, nothing unpriced. */
  complete: boolean;
}

export interface PricedUsage {
  utility: Utility;
  months: MonthCharges[];
  /** DYNAMIC tariffs, and TOU energy the schedule could not place in a period. */
  approximate: boolean;
}

/** How many of the aligned interval starts t (t a multiple of intervalMs) lie in [fromMs, toMs). */
function alignedStartsIn(intervalMs: number, fromMs: number, toMs: number): number {
  return Math.ceil(toMs / intervalMs) - Math.ceil(fromMs / intervalMs);
}

/** 1 for a whole month, else the days the month's part covers / 30: how water's monthly tiers and caps are prorated. */
function partMonthScale(shares: readonly SeasonShare[]): Dec {
  const covered = shares.reduce((total, share) => total + share.coveredMs, 0);
  if (shares.length === 0 || covered >= shares[0]!.monthMs) return new Dec(1);
  return new Dec(covered).div(DAY_MS).div(30);
}

export function assertValidPeriod({ start, end, intervalMinutes }: BillingContext): void {
  if (!(end.getTime() > start.getTime())) throw new RangeError('end must be after start');
  if (!(intervalMinutes > 0)) throw new RangeError('intervalMinutes must be positive');
}

/** The kVA/month items whose figures a month names. */
function demandCharges(charges: Map<string, Charge[]>) {
  const kvaCharges = [...charges.values()]
    .flat()
    .filter((charge) => charge.basis === 'PER_KVA_MONTH')
    .sort((a, b) => a.position - b.position);
  const withBasis = (basis: string) => kvaCharges.find((charge) => (charge.item.demand_basis ?? 'MONTH_MAX') === basis);
  return {
    chargeable: kvaCharges.find((charge) => charge.item.item_type_code === 'NETWORK_DEMAND') ?? withBasis('MONTH_MAX'),
    utilised: withBasis('UTILISED_CAPACITY'),
    excess: withBasis('EXCESS'),
  };
}

/** The bill's lines per local month, before any rounding (extensions §10, §11.5, §11.6, §12.1), from its measured usage. */
export function collectCharges(input: BillingContext, usage: Usage): PricedUsage {
  assertValidPeriod(input);
  const startMs = input.start.getTime();
  const endMs = input.end.getTime();
  const timeZone = input.tariff.timezone;
  const { describeDay } = calendarLookups(input.calendar);
  const utility = input.utility ?? 'electricity';
  const charges = chargesByType(input.tariff.items, utility);
  const kvaBasis = createKvaBasis({
    demand: usage.demand,
    earlierDemand: usage.earlierDemand,
    notifiedMaxDemandKva: input.notifiedMaxDemandKva,
  });
  const shares = seasonShares(timeZone, describeDay, startMs, endMs);
  const figures = demandCharges(charges);
  const intervalMs = input.intervalMinutes * 60_000;
  const validity = validityOf(input);
  const foreign = foreignTypes(input.tariff.items, utility);
  const hasTouCharges = [...charges.values()].some((group) => group[0]!.basis === 'TOU');
  const basisOf = (charge: Charge | undefined, monthKey: number) => (charge ? kvaBasis(charge, monthKey) : null);

  const months = billingMonths(timeZone, startMs, endMs).map((month): MonthCharges => {
    const ofMonth = <T extends { monthKey: number }>(parts: T[]) =>
      parts.filter((part) => part.monthKey === month.monthKey);
    const { monthKey } = month;
    const notes = new MonthNotes();
    const expectedIntervals = alignedStartsIn(intervalMs, month.startMs, month.endMs);
    const missingIntervals = expectedIntervals - (usage.coveredIntervalsByMonth.get(monthKey) ?? 0);
    noteMonth(notes, {
      month,
      label: monthLabel(monthKey),
      expectedIntervals,
      missingIntervals,
      validity,
      dynamic: input.tariff.tariff_type === 'DYNAMIC',
    });
    const book = new LineBook();
    const segments = ofMonth(usage.segments);
    if (hasTouCharges)
      noteUnclassified(
        notes,
        segments.reduce((sum, s) => sum + s.unclassifiedMicro, 0),
      );
    const monthShares = ofMonth(shares);
    addEnergyCharges(book, charges, segments, notes, { utility, scale: partMonthScale(monthShares) });
    const measuredKva = addFixedCharges(book, charges, monthShares, kvaBasis, notes);
    noteForeignItems(notes, foreign, utility);
    const noReactive = segments.length > 0 && segments.every((segment) => segment.kvarhMicro === 0);
    if (measuredKva && noReactive && !input.apparentPowerMonths?.has(monthKey)) {
      notes.warn(KVA_FROM_KW);
    }
    const nmd = input.notifiedMaxDemandKva;
    return {
      month,
      segments,
      lines: book.list(),
      missingIntervals,
      demand: {
        maxKva: utility === 'electricity' && usage.demand.has(monthKey) ? usage.demand.monthMax(monthKey, null) : null,
        chargeableKva: figures.chargeable
          ? usage.demand.monthMax(monthKey, figures.chargeable.item.demand_periods)
          : null,
        utilisedKva: basisOf(figures.utilised, monthKey),
        nmdKva: nmd === null || nmd === undefined ? null : new Dec(nmd),
        excessKva: basisOf(figures.excess, monthKey),
      },
      warnings: notes.list(),
      complete: notes.complete,
    };
  });

  const unclassified = usage.segments.some((segment) => segment.unclassifiedMicro > 0);
  return {
    utility,
    months,
    approximate: input.tariff.tariff_type === 'DYNAMIC' || (hasTouCharges && unclassified),
  };
}
