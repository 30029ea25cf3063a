import { api, read } from '../api/client.ts';
import type { Bill, BillLine, BillMonth, BillSource, BuildingCost } from '../api/models.ts';
import type { MonthSpan } from '../lib/ranges.ts';

/**
 * A building's cost per calendar month, with each month's bills and lines: one energy-cost request
 * for the whole range, every bill cut into its `months` (extensions §11.6).
 */

/** One bill's part in one month. */
export interface MonthBill {
  tariff_id: number;
  meter_sn: string;
  currency: string;
  approximate: boolean;
  start: string;
  end: string;
  import_kwh: number;
  export_kwh: number;
  lines: BillLine[];
  subtotal: number;
  tax: number;
  total: number;
  missing_intervals: number;
  /** Nothing missing and nothing unpriced in this month (§12.1). */
  complete: boolean;
  /** This month's own warnings. */
  warnings: string[];
}

export interface SourceMonth {
  source: BillSource;
  meter_sn: string | null;
  tariff_id: number | null;
  priced: boolean;
  reason: string | null;
  bills: MonthBill[];
}

export interface MonthCost extends MonthSpan {
  /** Amount per currency. */
  totals: Record<string, number>;
  /** Every bill of the month says it had no reading at all: only fixed charges, not a usual bill. */
  noReadings: boolean;
  /** Every bill of the month is complete: nothing missing, nothing unpriced. */
  complete: boolean;
  sources: SourceMonth[];
}

const cents = (amount: number) => Math.round(amount * 100) / 100;

function monthBill(bill: Bill, part: BillMonth): MonthBill {
  return {
    tariff_id: bill.tariff_id,
    meter_sn: bill.meter_sn,
    currency: bill.currency,
    approximate: bill.approximate,
    complete: part.complete,
    warnings: part.warnings,
    start: part.start,
    end: part.end,
    import_kwh: part.import_kwh,
    export_kwh: part.export_kwh,
    lines: part.lines,
    subtotal: part.subtotal,
    tax: part.tax,
    total: part.total,
    missing_intervals: part.missing_intervals,
  };
}

function monthOf(span: MonthSpan, sources: SourceMonth[]): MonthCost {
  const totals: Record<string, number> = {};
  const bills = sources.flatMap((s) => s.bills);
  for (const bill of bills) totals[bill.currency] = cents((totals[bill.currency] ?? 0) + bill.total);
  const noReadings = bills.length > 0 && bills.every((b) => b.warnings.includes(`No readings in ${span.month}`));
  return { ...span, totals, noReadings, complete: bills.every((b) => b.complete), sources };
}

/** A month of an answer: each source with the part of each bill that falls in the month. */
function monthOfAnswer(cost: BuildingCost, span: MonthSpan, billParts: (bill: Bill) => MonthBill[]): MonthCost {
  return monthOf(
    span,
    cost.sources.map(({ source, meter_sn, tariff_id, priced, reason, bills }) => ({
      source,
      meter_sn,
      tariff_id,
      priced,
      reason,
      bills: bills.flatMap(billParts),
    })),
  );
}

/** The months of one answer whose bills carry `months` (§11.6). */
function fromMonths(cost: BuildingCost, spans: MonthSpan[]): MonthCost[] {
  return spans.map((span) =>
    monthOfAnswer(cost, span, (bill) =>
      (bill.months ?? []).filter((m) => m.month === span.month).map((m) => monthBill(bill, m)),
    ),
  );
}

function buildingCost(accountId: string, blockId: number, start: string, end: string): Promise<BuildingCost> {
  return read<BuildingCost>(
    api.GET('/api/v1/building_blocks/{id}/energy-cost', {
      params: { path: { id: blockId }, query: { account_id: accountId, start, end } },
    }),
  );
}

/**
 * The months from the first with a bill on: a month before every meter's installation has none
 * (extensions §13.2), so the view starts where the supply does.
 */
function fromInstallation(months: MonthCost[]): MonthCost[] {
  const first = months.findIndex((m) => m.sources.some((s) => s.bills.length > 0));
  return first <= 0 ? months : months.slice(first);
}

export async function monthlyCost(accountId: string, blockId: number, spans: MonthSpan[]): Promise<MonthCost[]> {
  if (spans.length === 0) return [];
  const cost = await buildingCost(accountId, blockId, spans[0]!.start, spans.at(-1)!.end);
  return fromInstallation(fromMonths(cost, spans));
}
