import { Decimal } from 'decimal.js';
import type { Invoice } from './invoices.repository.ts';

/** The bill the service computes for an invoice's source and period, reduced to what a check compares. */
export interface ComputedBill {
  /** Some part of the period is priced by a tariff. */
  priced: boolean;
  total: number;
  import_kwh: number;
  /** The water source's kL. */
  volume_kl?: number;
  complete: boolean;
  warnings: string[];
  lines: { item_type_code: string; quantity: number; unit: string; amount: number }[];
}

/** Other invoices of the same block and source, as the period flags need them. */
interface Neighbours {
  overlapping: { invoice_number: string }[];
  /** The latest that ends at or before this one's start. */
  previous: { invoice_number: string; end: Date } | undefined;
}

interface CheckLine {
  item_type_code: string | null;
  invoice_amount: number | null;
  computed_amount: number | null;
  difference: number | null;
  invoice_quantity: number | null;
  computed_quantity: number | null;
}

type FlagCode =
  | 'TOTAL_VARIANCE'
  | 'LINE_VARIANCE'
  | 'UNMATCHED_LINE'
  | 'QUANTITY_MISMATCH'
  | 'PERIOD_OVERLAP'
  | 'PERIOD_GAP'
  | 'ESTIMATED'
  | 'INCOMPLETE_DATA'
  | 'NO_TARIFF';

interface Flag {
  code: FlagCode;
  message: string;
}

interface Side {
  amount: Decimal;
  quantity: Decimal | null;
  unit: string | null;
}

const money = (value: Decimal) => value.toDecimalPlaces(2).toNumber();
const show = (value: Decimal | number) => new Decimal(value).toFixed(2);

/** Lines of one side added up by item type, in the order each type first comes. */
function byItemType(
  lines: readonly { item_type_code: string; quantity: number | null; unit: string | null; amount: number }[],
) {
  const sides = new Map<string, Side>();
  for (const line of lines) {
    const side = sides.get(line.item_type_code) ?? { amount: new Decimal(0), quantity: null, unit: line.unit };
    side.amount = side.amount.plus(line.amount);
    if (line.quantity !== null) side.quantity = (side.quantity ?? new Decimal(0)).plus(line.quantity);
    side.unit ??= line.unit;
    sides.set(line.item_type_code, side);
  }
  return sides;
}

/**
 * The invoice's lines against the computed bill's, matched by item_type_code (several lines or
 * months of one type added up): the invoice's types in its order, its lines without a type each on
 * their own, then the types only the computed bill has.
 */
export function matchLines(invoice: Pick<Invoice, 'lines'>, computed: ComputedBill): CheckLine[] {
  const computedSides = byItemType(computed.lines);
  const coded = invoice.lines.flatMap((l) =>
    l.item_type_code === null ? [] : [{ ...l, item_type_code: l.item_type_code }],
  );
  const invoiceSides = byItemType(coded);
  const lines: CheckLine[] = [];
  const listed = new Set<string>();
  const line = (code: string | null, mine: Side | undefined, theirs: Side | undefined): CheckLine => ({
    item_type_code: code,
    invoice_amount: mine ? money(mine.amount) : null,
    computed_amount: theirs ? money(theirs.amount) : null,
    difference: mine && theirs ? money(mine.amount.minus(theirs.amount)) : null,
    invoice_quantity: mine?.quantity?.toNumber() ?? null,
    computed_quantity: theirs?.quantity?.toNumber() ?? null,
  });
  for (const invoiceLine of invoice.lines) {
    const code = invoiceLine.item_type_code;
    if (code === null) {
      const quantity = invoiceLine.quantity === null ? null : new Decimal(invoiceLine.quantity);
      lines.push(line(null, { amount: new Decimal(invoiceLine.amount), quantity, unit: invoiceLine.unit }, undefined));
    } else if (!listed.has(code)) {
      listed.add(code);
      lines.push(line(code, invoiceSides.get(code), computedSides.get(code)));
    }
  }
  for (const [code, side] of computedSides) if (!listed.has(code)) lines.push(line(code, undefined, side));
  return lines;
}

/** A variance beyond tolerancePct % of the computed amount, and at least 1.00. */
function beyondTolerance(difference: number, computed: number, tolerancePct: number): boolean {
  const tolerance = Decimal.max(new Decimal(computed).abs().times(tolerancePct).div(100), 1);
  return new Decimal(difference).abs().greaterThan(tolerance);
}

/** A metered line whose quantity is checked: energy in kWh, water and sewage in kL. */
const isMetered = (unit: string | null) => unit === 'kWh' || unit === 'kL';

/** The flags of extensions §12.3, in the order the contract lists them. */
export function invoiceFlags(
  invoice: Invoice,
  computed: ComputedBill,
  lines: readonly CheckLine[],
  neighbours: Neighbours,
  tolerancePct: number,
): Flag[] {
  const flags: Flag[] = [];
  const difference = new Decimal(invoice.total).minus(computed.total).toNumber();
  if (beyondTolerance(difference, computed.total, tolerancePct)) {
    flags.push({
      code: 'TOTAL_VARIANCE',
      message: `The invoice total ${show(invoice.total)} differs from the computed ${show(computed.total)} by ${show(difference)}`,
    });
  }
  for (const l of lines) {
    if (l.difference !== null && beyondTolerance(l.difference, l.computed_amount!, tolerancePct)) {
      flags.push({
        code: 'LINE_VARIANCE',
        message: `${l.item_type_code}: invoiced ${show(l.invoice_amount!)}, computed ${show(l.computed_amount!)}`,
      });
    }
  }
  for (const l of lines) {
    if (l.invoice_amount !== null && l.computed_amount === null && l.invoice_amount !== 0) {
      flags.push({
        code: 'UNMATCHED_LINE',
        message: `${l.item_type_code ?? 'A line without item_type_code'}: invoiced ${show(l.invoice_amount)}, not in the computed bill`,
      });
    } else if (l.computed_amount !== null && l.invoice_amount === null && l.computed_amount !== 0) {
      flags.push({
        code: 'UNMATCHED_LINE',
        message: `${l.item_type_code}: computed ${show(l.computed_amount)}, not on the invoice`,
      });
    }
  }
  const units = new Map(computed.lines.map((l) => [l.item_type_code, l.unit]));
  for (const l of lines) {
    const unit = units.get(l.item_type_code!) ?? null;
    if (l.invoice_quantity === null || l.computed_quantity === null || !isMetered(unit)) continue;
    const off = new Decimal(l.invoice_quantity).minus(l.computed_quantity).abs();
    if (off.greaterThan(new Decimal(l.computed_quantity).abs().times(tolerancePct).div(100))) {
      flags.push({
        code: 'QUANTITY_MISMATCH',
        message: `${l.item_type_code}: invoiced ${l.invoice_quantity} ${unit}, measured ${l.computed_quantity} ${unit}`,
      });
    }
  }
  if (neighbours.overlapping.length > 0) {
    flags.push({
      code: 'PERIOD_OVERLAP',
      message: `The period overlaps invoice ${neighbours.overlapping.map((o) => o.invoice_number).join(', ')}`,
    });
  }
  const previous = neighbours.previous;
  if (previous && previous.end < invoice.start) {
    flags.push({
      code: 'PERIOD_GAP',
      message: `No invoice covers ${previous.end.toISOString()} to ${invoice.start.toISOString()} (invoice ${previous.invoice_number} ends before this one starts)`,
    });
  }
  if (invoice.estimated) flags.push({ code: 'ESTIMATED', message: 'The invoice is estimated' });
  if (!computed.complete) {
    flags.push({ code: 'INCOMPLETE_DATA', message: 'The computed bill is not complete: see computed.warnings' });
  }
  if (!computed.priced) flags.push({ code: 'NO_TARIFF', message: 'No part of the period is priced by a tariff' });
  return flags;
}
