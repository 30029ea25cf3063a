import { monthLabel } from './calendar.ts';
import type { ChargeLine } from './line-book.ts';
import { Dec, millionthsToNumber, roundCents, roundQuantity, ZERO } from './money.ts';
import type { MonthCharges, PricedUsage } from './pricing.ts';
import type { Bill, BillLine, BillMonth, PricingTariff } from './types.ts';

/** Avoids -0 in the output (a zero credit). */
function toNumber(value: Dec): number {
  return value.isZero() ? 0 : value.toNumber();
}

/** A line rounded as billed: the amount to the cent, the quantity to 6 decimals. */
interface RoundedLine {
  charge: ChargeLine['charge'];
  blockIndex: number | null;
  quantity: Dec;
  unitPrice: Dec;
  amount: Dec;
}

function roundLine(line: ChargeLine): RoundedLine {
  return {
    ...line,
    quantity: new Dec(roundQuantity(line.quantity)),
    amount: roundCents(line.quantity.times(line.unitPrice)),
  };
}

function toBillLine(line: RoundedLine): BillLine {
  return {
    item_type_code: line.charge.item.item_type_code,
    season: line.charge.item.season,
    period: line.charge.period,
    block_index: line.blockIndex,
    quantity: toNumber(line.quantity),
    unit: line.charge.item.unit,
    unit_price: toNumber(line.unitPrice),
    amount: toNumber(line.amount),
  };
}

const sum = (values: Dec[]) => values.reduce((total, value) => total.plus(value), ZERO);

const quantityOrNull = (value: Dec | null) => (value === null ? null : roundQuantity(value));

function priceMonth(monthCharges: MonthCharges, taxRate: Dec) {
  const lines = monthCharges.lines.map(roundLine);
  const subtotal = sum(lines.map((line) => line.amount));
  const tax = roundCents(subtotal.times(taxRate).div(100));
  const { month, segments, demand } = monthCharges;
  const micro = (pick: (segment: (typeof segments)[number]) => number) =>
    millionthsToNumber(segments.reduce((total, segment) => total + pick(segment), 0));
  const chargeableKva = quantityOrNull(demand.chargeableKva);
  const billMonth: BillMonth = {
    month: monthLabel(month.monthKey),
    start: new Date(month.startMs).toISOString(),
    end: new Date(month.endMs).toISOString(),
    import_kwh: micro((segment) => segment.importMicro),
    export_kwh: micro((segment) => segment.exportMicro),
    kvarh: micro((segment) => segment.kvarhMicro),
    max_kva: quantityOrNull(demand.maxKva),
    chargeable_kva: chargeableKva,
    demand: {
      max_kva: quantityOrNull(demand.maxKva),
      chargeable_kva: chargeableKva,
      utilised_kva: quantityOrNull(demand.utilisedKva),
      nmd_kva: quantityOrNull(demand.nmdKva),
      excess_kva: quantityOrNull(demand.excessKva),
    },
    lines: lines.map(toBillLine),
    subtotal: toNumber(subtotal),
    tax: toNumber(tax),
    total: toNumber(subtotal.plus(tax)),
    missing_intervals: monthCharges.missingIntervals,
    complete: monthCharges.complete,
    warnings: monthCharges.warnings,
  };
  return { billMonth, lines, subtotal, tax };
}

/** The months' lines added up: same item (so type, season and period) and block. */
function addUp(lines: RoundedLine[]): RoundedLine[] {
  const byKey = new Map<string, RoundedLine>();
  for (const line of lines) {
    const key = `${line.charge.position}|${line.blockIndex ?? ''}`;
    const total = byKey.get(key);
    if (total)
      byKey.set(key, {
        ...total,
        quantity: total.quantity.plus(line.quantity),
        amount: total.amount.plus(line.amount),
      });
    else byKey.set(key, line);
  }
  return [...byKey.values()].sort(
    (a, b) => a.charge.position - b.charge.position || (a.blockIndex ?? 0) - (b.blockIndex ?? 0),
  );
}

/** Rounds each month as billed, and the bill as the sum of its months (extensions §11.6, §12.1). */
export function assembleBill(tariff: PricingTariff, priced: PricedUsage): Bill {
  const taxRate = new Dec(tariff.tax_rate);
  const months = priced.months.map((month) => priceMonth(month, taxRate));
  const billMonths = months.map((month) => month.billMonth);
  const subtotal = sum(months.map((month) => month.subtotal));
  const tax = sum(months.map((month) => month.tax));
  const peaks = billMonths.flatMap((month) => (month.max_kva === null ? [] : [month.max_kva]));
  const missing = billMonths.reduce((total, month) => total + month.missing_intervals, 0);
  const addKwh = (pick: (month: BillMonth) => number) => toNumber(sum(billMonths.map((month) => new Dec(pick(month)))));
  return {
    tariff_id: tariff.id,
    currency: tariff.currency,
    approximate: priced.approximate,
    import_kwh: addKwh((month) => month.import_kwh),
    export_kwh: addKwh((month) => month.export_kwh),
    kvarh: addKwh((month) => month.kvarh),
    max_kva: peaks.length === 0 ? null : Math.max(...peaks),
    lines: addUp(months.flatMap((month) => month.lines)).map(toBillLine),
    subtotal: toNumber(subtotal),
    tax_rate: taxRate.toNumber(),
    tax: toNumber(tax),
    total: toNumber(subtotal.plus(tax)),
    missing_intervals: missing,
    complete: billMonths.every((month) => month.complete),
    warnings: [...new Set(billMonths.flatMap((month) => month.warnings))],
    months: billMonths,
  };
}
