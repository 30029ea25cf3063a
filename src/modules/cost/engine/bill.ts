import { monthLabel } from './calendar.ts';
import { type ChargeLine, quantityOf } from './line-book.ts';
import { Dec, exactAmountCents, millionthsToNumber, roundQuantity } from './money.ts';
import type { MonthCharges, PricedUsage } from './pricing.ts';
import type { Bill, BillLine, BillMonth, PricingTariff, Utility } from './types.ts';

/**
 * Once rounded as billed, amounts are whole cents and quantities whole millionths of their unit:
 * integers, which a double adds exactly far beyond the largest bill answered (exact-money.ts), so
 * the rounded bill is added up in numbers. Only the products before rounding need decimals.
 */
const CENTS_PER_UNIT = 100;
const MILLIONTHS_PER_UNIT = 1_000_000;

/** A whole number of cents or millionths as the number of units it is; never -0 (a zero credit). */
const centsToNumber = (cents: number) => cents / CENTS_PER_UNIT || 0;
const micro = (value: number) => Math.round(value * MILLIONTHS_PER_UNIT);

/** A line rounded as billed: the amount to the cent, the quantity to 6 decimals. */
interface RoundedLine {
  charge: ChargeLine['charge'];
  blockIndex: number | null;
  quantityMicro: number;
  unitPrice: number;
  amountCents: number;
}

/** The unit prices as numbers: a tariff's few prices, converted once per bill. */
function createUnitPrices() {
  const numbers = new Map<Dec, number>();
  return (price: Dec) => {
    let value = numbers.get(price);
    if (value === undefined) {
      value = price.toNumber() || 0;
      numbers.set(price, value);
    }
    return value;
  };
}

function roundLine(line: ChargeLine, unitPrice: (price: Dec) => number): RoundedLine {
  // Whole millionths of metered energy are their own rounding, and most amounts are exact in integers.
  const exactCents = line.micro === undefined ? null : exactAmountCents(line.micro, line.unitPrice);
  let quantityMicro = line.micro ?? 0;
  let amountCents = exactCents ?? 0;
  if (exactCents === null) {
    const quantity = quantityOf(line);
    quantityMicro = micro(roundQuantity(quantity));
    amountCents = Math.round(
      quantity.times(line.unitPrice).toDecimalPlaces(2, Dec.ROUND_HALF_UP).toNumber() * CENTS_PER_UNIT,
    );
  }
  return {
    charge: line.charge,
    blockIndex: line.blockIndex,
    quantityMicro,
    unitPrice: unitPrice(line.unitPrice),
    amountCents,
  };
}

function toBillLine(line: RoundedLine): BillLine {
  return {
    item_type_code: line.charge.item.item_type_code,
    season: line.charge.item.season,
    period: line.charge.period,
    block_index: line.blockIndex,
    quantity: millionthsToNumber(line.quantityMicro) || 0,
    unit: line.charge.item.unit,
    unit_price: line.unitPrice,
    amount: centsToNumber(line.amountCents),
  };
}

const quantityOrNull = (value: Dec | null) => (value === null ? null : roundQuantity(value));

/** The tax of a subtotal, to the cent (half away from zero). */
function taxCents(subtotalCents: number, taxRate: Dec): number {
  return new Dec(subtotalCents).times(taxRate).div(100).toDecimalPlaces(0, Dec.ROUND_HALF_UP).toNumber() || 0;
}

interface PricedMonth {
  billMonth: BillMonth;
  lines: RoundedLine[];
  subtotalCents: number;
  taxCents: number;
  /** Millionths of a kWh (of a kvarh). */
  importMicro: number;
  exportMicro: number;
  kvarhMicro: number;
}

/** The metered quantities as a bill names them: a water meter's volume is its imported quantity, in kL. */
function metered(utility: Utility, importMicro: number, exportMicro: number, kvarhMicro: number) {
  const imported = millionthsToNumber(importMicro);
  if (utility === 'water') return { volume_kl: imported, import_kwh: 0, export_kwh: 0, kvarh: 0 };
  return { import_kwh: imported, export_kwh: millionthsToNumber(exportMicro), kvarh: millionthsToNumber(kvarhMicro) };
}

function priceMonth(
  monthCharges: MonthCharges,
  taxRate: Dec,
  unitPrice: (price: Dec) => number,
  utility: Utility,
): PricedMonth {
  const lines = monthCharges.lines.map((line) => roundLine(line, unitPrice));
  const subtotalCents = lines.reduce((total, line) => total + line.amountCents, 0);
  const tax = taxCents(subtotalCents, taxRate);
  const { month, segments, demand } = monthCharges;
  const sumMicro = (pick: (segment: (typeof segments)[number]) => number) =>
    segments.reduce((total, segment) => total + pick(segment), 0);
  const importMicro = sumMicro((segment) => segment.importMicro);
  const exportMicro = sumMicro((segment) => segment.exportMicro);
  const kvarhMicro = sumMicro((segment) => segment.kvarhMicro);
  const chargeableKva = quantityOrNull(demand.chargeableKva);
  const billMonth: BillMonth = {
    month: monthLabel(month.monthKey),
    start: new Date(month.startMs).toISOString(),
    end: new Date(month.endMs).toISOString(),
    ...metered(utility, importMicro, exportMicro, kvarhMicro),
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
    subtotal: centsToNumber(subtotalCents),
    tax: centsToNumber(tax),
    total: centsToNumber(subtotalCents + tax),
    missing_intervals: monthCharges.missingIntervals,
    complete: monthCharges.complete,
    warnings: monthCharges.warnings,
  };
  return { billMonth, lines, subtotalCents, taxCents: tax, importMicro, exportMicro, kvarhMicro };
}

/** The months' lines added up: same item (so type, season and period) and block. */
function addUp(lines: RoundedLine[]): RoundedLine[] {
  const byKey = new Map<string, RoundedLine>();
  for (const line of lines) {
    const key = `${line.charge.position}|${line.blockIndex ?? ''}`;
    const total = byKey.get(key);
    if (total) {
      total.quantityMicro += line.quantityMicro;
      total.amountCents += line.amountCents;
    } else byKey.set(key, { ...line });
  }
  return [...byKey.values()].sort(
    (a, b) => a.charge.position - b.charge.position || (a.blockIndex ?? 0) - (b.blockIndex ?? 0),
  );
}

/** Rounds each month as billed, and the bill as the sum of its months (extensions §11.6, §12.1). */
export function assembleBill(tariff: PricingTariff, priced: PricedUsage): Bill {
  const taxRate = new Dec(tariff.tax_rate);
  const unitPrice = createUnitPrices();
  const months = priced.months.map((month) => priceMonth(month, taxRate, unitPrice, priced.utility));
  const billMonths = months.map((month) => month.billMonth);
  const total = (pick: (month: PricedMonth) => number) => months.reduce((sum, month) => sum + pick(month), 0);
  const subtotalCents = total((month) => month.subtotalCents);
  const tax = total((month) => month.taxCents);
  const peaks = billMonths.flatMap((month) => (month.max_kva === null ? [] : [month.max_kva]));
  return {
    tariff_id: tariff.id,
    currency: tariff.currency,
    approximate: priced.approximate,
    ...metered(
      priced.utility,
      total((month) => month.importMicro),
      total((month) => month.exportMicro),
      total((month) => month.kvarhMicro),
    ),
    max_kva: peaks.length === 0 ? null : Math.max(...peaks),
    lines: addUp(months.flatMap((month) => month.lines)).map(toBillLine),
    subtotal: centsToNumber(subtotalCents),
    tax_rate: taxRate.toNumber(),
    tax: centsToNumber(tax),
    total: centsToNumber(subtotalCents + tax),
    missing_intervals: total((month) => month.billMonth.missing_intervals),
    complete: billMonths.every((month) => month.complete),
    warnings: [...new Set(billMonths.flatMap((month) => month.warnings))],
    months: billMonths,
  };
}
