import { detectDelimiter } from '../../../src/modules/timeseries/import/csv-dialect.ts';
import { fields } from '../../../src/modules/timeseries/import/readings-csv.ts';
import type { TariffItemType } from '../api/models.ts';
import { parseAmount } from './invoice-flags.ts';

/** An invoice line read from a CSV, as the form edits it: text fields, the charge as its item type code or ''. */
export interface CsvInvoiceLine {
  description: string;
  code: string;
  quantity: string;
  unit: string;
  amount: string;
}

type Column = 'description' | 'code' | 'quantity' | 'unit' | 'unit_price' | 'amount';

/** The names spreadsheets give each column, lower case. */
const NAMES: Readonly<Record<Column, readonly string[]>> = {
  description: ['description', 'item', 'details'],
  code: ['item_type_code', 'code', 'charge'],
  quantity: ['quantity', 'qty'],
  unit: ['unit', 'units'],
  unit_price: ['unit_price', 'unit price', 'rate', 'price'],
  amount: ['amount', 'line total', 'total'],
};

/** The charge a CSV names, by its code or its name (any case); undefined when no tariff charge has it. */
function chargeOf(text: string, types: Map<string, TariffItemType>): string | undefined {
  const wanted = text.trim().toLowerCase();
  return [...types.values()].find((t) => t.code.toLowerCase() === wanted || t.displayName.toLowerCase() === wanted)
    ?.code;
}

/** Quantity × unit price to the cent, as the amount of a line without one. */
const priced = (quantity: number, unitPrice: number) => String(Math.round(quantity * unitPrice * 100) / 100);

/**
 * Invoice lines from a CSV's text (a header line, then a line per charge): the delimiter (, ; or
 * tab) found from the header as the readings upload finds it, decimals with a dot or a comma.
 * Columns by name (any case): description, item_type_code (or code, charge: a tariff charge's code
 * or name), quantity, unit, amount, or unit_price (or rate) with the quantity instead of the amount.
 * The lines, or what is wrong, naming the CSV's line.
 */
export function readInvoiceLines(
  text: string,
  types: Map<string, TariffItemType>,
): { lines: CsvInvoiceLine[] } | { problem: string } {
  const [header = '', ...rows] = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const delimiter = detectDelimiter(header);
  const names = fields(header, delimiter).map((name) => name.toLowerCase());
  const at = Object.fromEntries(
    (Object.keys(NAMES) as Column[]).map((column) => [column, names.findIndex((n) => NAMES[column].includes(n))]),
  ) as Record<Column, number>;
  if (at.description < 0) return { problem: 'Line 1 of the CSV: the header needs a description column.' };
  if (at.amount < 0 && (at.unit_price < 0 || at.quantity < 0)) {
    return { problem: 'Line 1 of the CSV: the header needs an amount column, or quantity and unit_price columns.' };
  }
  const lines: CsvInvoiceLine[] = [];
  for (const [i, row] of rows.entries()) {
    if (row.trim() === '') continue;
    const where = `Line ${i + 2} of the CSV`;
    const values = fields(row, delimiter);
    const value = (column: Column) => (at[column] < 0 ? '' : (values[at[column]] ?? ''));
    const quantity = value('quantity') === '' ? null : parseAmount(value('quantity'));
    const unitPrice = parseAmount(value('unit_price'));
    const charge = value('code') === '' ? '' : chargeOf(value('code'), types);
    if (value('description') === '') return { problem: `${where}: write what the charge is.` };
    if (quantity !== null && Number.isNaN(quantity)) {
      return { problem: `${where}: write the quantity as a number, or nothing, not "${value('quantity')}".` };
    }
    if (charge === undefined) return { problem: `${where}: "${value('code')}" is not a tariff charge.` };
    const amount =
      value('amount') !== '' || quantity === null || Number.isNaN(unitPrice)
        ? value('amount')
        : priced(quantity, unitPrice);
    if (Number.isNaN(parseAmount(amount))) {
      const found = amount === '' ? '' : `, not "${amount}"`;
      return { problem: `${where}: write the amount as a number, such as 9435.75${found}.` };
    }
    lines.push({
      description: value('description'),
      code: charge,
      quantity: value('quantity'),
      unit: value('unit'),
      amount,
    });
  }
  if (lines.length === 0) return { problem: 'The CSV has a header and no lines.' };
  return { lines };
}
