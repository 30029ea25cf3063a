import { Decimal } from 'decimal.js';
import type { Invoice } from './invoices.repository.ts';
import { moneyText, quantityText } from './money-text.ts';

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

/** The flags that say the invoice and our bill disagree; the others only warn (extensions §13.4). */
const ERRORS: ReadonlySet<FlagCode> = new Set([
  'TOTAL_VARIANCE',
  'LINE_VARIANCE',
  'UNMATCHED_LINE',
  'QUANTITY_MISMATCH',
  'NO_TARIFF',
]);

interface Flag {
  code: FlagCode;
  severity: 'error' | 'warning';
  message: string;
}

const flag = (code: FlagCode, message: string): Flag => ({
  code,
  severity: ERRORS.has(code) ? 'error' : 'warning',
  message,
});

interface Side {
  amount: Decimal;
  quantity: Decimal | null;
  unit: string | null;
}

const money = (value: Decimal) => value.toDecimalPlaces(2).toNumber();

/** An instant as its UTC day and time, "2025-06-02 12:00 UTC". */
const instantText = (instant: Date) => `${instant.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

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

/** The flags of extensions §12.3, in the order the contract lists them, in words (§13.4). */
export function invoiceFlags(
  invoice: Invoice,
  computed: ComputedBill,
  lines: readonly CheckLine[],
  neighbours: Neighbours,
  options: { tolerancePct: number; names: ReadonlyMap<string, string> },
): Flag[] {
  const { tolerancePct, names } = options;
  const show = (amount: Decimal.Value) => moneyText(amount, invoice.currency);
  const charge = (code: string | null) => (code === null ? 'A line without an item type' : (names.get(code) ?? code));
  const flags: Flag[] = [];
  const difference = new Decimal(invoice.total).minus(computed.total);
  if (beyondTolerance(difference.toNumber(), computed.total, tolerancePct)) {
    flags.push(
      flag(
        'TOTAL_VARIANCE',
        `The invoice's total of ${show(invoice.total)} is ${show(difference.abs())} ${difference.isNegative() ? 'less' : 'more'} than our bill's ${show(computed.total)}`,
      ),
    );
  }
  for (const l of lines) {
    if (l.difference !== null && beyondTolerance(l.difference, l.computed_amount!, tolerancePct)) {
      const more = l.difference > 0 ? 'more' : 'less';
      flags.push(
        flag(
          'LINE_VARIANCE',
          `${charge(l.item_type_code)}: the invoice charges ${show(l.invoice_amount!)}, our bill ${show(l.computed_amount!)} (${show(Math.abs(l.difference))} ${more})`,
        ),
      );
    }
  }
  for (const l of lines) {
    if (l.invoice_amount !== null && l.computed_amount === null && l.invoice_amount !== 0) {
      flags.push(
        flag(
          'UNMATCHED_LINE',
          `${charge(l.item_type_code)}: the invoice charges ${show(l.invoice_amount)}, our bill has no such charge`,
        ),
      );
    } else if (l.computed_amount !== null && l.invoice_amount === null && l.computed_amount !== 0) {
      flags.push(
        flag(
          'UNMATCHED_LINE',
          `${charge(l.item_type_code)}: our bill charges ${show(l.computed_amount)}, the invoice has no such charge`,
        ),
      );
    }
  }
  const units = new Map(computed.lines.map((l) => [l.item_type_code, l.unit]));
  for (const l of lines) {
    const unit = units.get(l.item_type_code!) ?? null;
    if (l.invoice_quantity === null || l.computed_quantity === null || !isMetered(unit)) continue;
    const off = new Decimal(l.invoice_quantity).minus(l.computed_quantity).abs();
    if (off.greaterThan(new Decimal(l.computed_quantity).abs().times(tolerancePct).div(100))) {
      flags.push(
        flag(
          'QUANTITY_MISMATCH',
          `${charge(l.item_type_code)}: the invoice counts ${quantityText(l.invoice_quantity, unit!)}, the meter measured ${quantityText(l.computed_quantity, unit!)}`,
        ),
      );
    }
  }
  if (neighbours.overlapping.length > 0) {
    const numbers = neighbours.overlapping.map((o) => o.invoice_number).join(', ');
    flags.push(flag('PERIOD_OVERLAP', `The period overlaps invoice ${numbers}: some days may be charged twice`));
  }
  const previous = neighbours.previous;
  if (previous && previous.end < invoice.start) {
    flags.push(
      flag(
        'PERIOD_GAP',
        `No invoice covers ${instantText(previous.end)} to ${instantText(invoice.start)}: invoice ${previous.invoice_number} ends before this one starts`,
      ),
    );
  }
  if (invoice.estimated) {
    flags.push(flag('ESTIMATED', 'The utility estimated the reading: expect a correction on a later invoice'));
  }
  if (!computed.complete) {
    flags.push(
      flag(
        'INCOMPLETE_DATA',
        `Our bill is not complete, so the comparison is not exact: ${computed.warnings.join('; ')}`,
      ),
    );
  }
  if (!computed.priced) {
    flags.push(flag('NO_TARIFF', 'No tariff prices any part of the period: there is no bill of ours to compare with'));
  }
  return flags;
}
