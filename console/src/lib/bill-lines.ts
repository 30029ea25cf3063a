import type { BillLine } from '../api/models.ts';
import { formatNumber, titleCase } from './format.ts';
import { addMonths, instantOf } from './time.ts';

/** How a bill's line reads: its quantity (pro rata where it is) and what its price is per. */

const DAY_MS = 86_400_000;

/**
 * Where a line's price applies, in words: its season (all year only when `allYear`), its
 * time-of-use period and its block's tier, counted from 1 ("Summer", "Peak", "tier 2").
 */
export function lineApplies(
  line: Pick<BillLine, 'season' | 'period' | 'block_index'>,
  { allYear }: { allYear: boolean },
): string[] {
  return [
    ...(allYear || line.season !== 'ALL_YEAR' ? [titleCase(line.season)] : []),
    ...(line.period ? [titleCase(line.period)] : []),
    ...(line.block_index !== null ? [`tier ${line.block_index + 1}`] : []),
  ];
}

/** The unit a line's price is per: a kVA line is charged per kVA per month. */
export const priceUnit = (unit: string) => (unit === 'kVA' || unit === 'kVA/month' ? 'kVA per month' : unit);

/** The local calendar month (YYYY-MM) of a zone, as an interval of instants. */
function monthBounds(month: string, tz: string): [number, number] {
  const [year, number] = month.split('-').map(Number);
  const first = { year: year!, month: number!, day: 1 };
  return [instantOf(first, tz), instantOf(addMonths(first, 1), tz)];
}

/**
 * A line's quantity as a reader checks it. A kVA/month charge on part of a month is the month's
 * kVA pro rata of the days covered: "500.00 kVA × 20/30 days", not "333.33 kVA" as if measured.
 */
export function lineQuantity(
  line: Pick<BillLine, 'quantity' | 'unit'>,
  part: { month: string; start: string; end: string },
  tz: string,
): string {
  const [monthStart, monthEnd] = monthBounds(part.month, tz);
  const covered = Date.parse(part.end) - Date.parse(part.start);
  const whole = monthEnd - monthStart;
  if (line.unit !== 'kVA' || covered >= whole || covered <= 0) return `${formatNumber(line.quantity, 2)} ${line.unit}`;
  const days = (ms: number) => formatNumber(ms / DAY_MS, Number.isInteger(ms / DAY_MS) ? 0 : 2);
  return `${formatNumber((line.quantity * whole) / covered, 2)} kVA × ${days(covered)}/${days(whole)} days`;
}

const BASES: Record<string, string> = {
  MONTH_MAX: "the month's highest half-hour demand",
  NMD: 'the notified maximum demand (NMD)',
  UTILISED_CAPACITY: 'the utilised capacity: the higher of the NMD and the highest demand of the last 12 months',
  EXCESS: 'the demand above the NMD',
};

/** What a kVA/month item charges: "on the month's highest half-hour demand in Peak and Standard"; '' for other units. */
export function demandBasisText(item: {
  unit: string | null;
  demand_basis?: string | null;
  demand_periods?: string[] | null;
}): string {
  if (priceUnit(item.unit ?? '') !== 'kVA per month') return '';
  const basis = BASES[item.demand_basis ?? 'MONTH_MAX'] ?? item.demand_basis;
  const periods = item.demand_periods?.length
    ? ` in ${item.demand_periods.map((p) => p.charAt(0) + p.slice(1).toLowerCase().replace('_', '-')).join(' and ')}`
    : '';
  return `on ${basis}${periods}`;
}
