import { createDayDescriber, seasonShares } from './calendar.ts';
import { chargesByType } from './charges.ts';
import { addEnergyCharges } from './energy-charges.ts';
import { addFixedCharges } from './fixed-charges.ts';
import { type ChargeLine, LineBook } from './line-book.ts';
import { createPeriodLookup } from './tou.ts';
import type { PricingInput } from './types.ts';
import { measureUsage, type Usage } from './usage.ts';

export interface PricedUsage {
  usage: Usage;
  lines: ChargeLine[];
  /** DYNAMIC tariffs, and TOU energy the schedule could not place in a period. */
  approximate: boolean;
}

/** The bill's lines before any rounding. */
export function collectCharges(input: PricingInput): PricedUsage {
  const startMs = input.start.getTime();
  const endMs = input.end.getTime();
  if (!(endMs > startMs)) throw new RangeError('end must be after start');
  if (!(input.intervalMinutes > 0)) throw new RangeError('intervalMinutes must be positive');

  const timeZone = input.tariff.timezone;
  const describeDay = createDayDescriber(input.calendar);
  const usage = measureUsage(input, describeDay, createPeriodLookup(input.calendar.schedule));
  const charges = chargesByType(input.tariff.items);
  const book = new LineBook();
  addEnergyCharges(book, charges, usage.segments);
  addFixedCharges(book, charges, {
    shares: seasonShares(timeZone, describeDay, startMs, endMs),
    maxKvaByMonth: usage.maxKvaByMonth,
  });

  const hasTouCharges = [...charges.values()].some((group) => group[0]!.basis === 'TOU');
  return {
    usage,
    lines: book.list(),
    approximate: input.tariff.tariff_type === 'DYNAMIC' || (hasTouCharges && usage.unclassifiedImportMicro > 0),
  };
}
