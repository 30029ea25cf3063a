/**
 * A CSV table as RFC 4180 writes it: comma-separated, CRLF line ends, fields quoted when they need
 * it, text that a spreadsheet would run as a formula defused. Every CSV the service and the console
 * write goes through here.
 */

export type CsvValue = string | number | boolean | null | undefined;

/**
 * A field in quotes when it holds a comma, a quote, a line end or leading or trailing space; quotes
 * doubled. Text beginning with = + - or @ is written after a ' (a spreadsheet shows it as text
 * instead of running it); numbers are written as numbers.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'number' ? csvNumber(value) : defused(String(value));
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Text that a spreadsheet would read as a formula, prefixed with a ' so that it reads as text. */
const defused = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);

/** A number as a program reads it back: a dot for decimals, no grouping, no negative zero. */
function csvNumber(value: number): string {
  if (!Number.isFinite(value)) return '';
  return Object.is(value, -0) ? '0' : String(value);
}

/** The header and the rows, each line ended by CRLF. */
export function toCsv(header: string[], rows: CsvValue[][]): string {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** What a CSV row shows of a bill's line, from its season on (a cost line of the service). */
export interface BillLineCells {
  season: string;
  period: string | null;
  block_index: number | null;
  quantity: number;
  unit: string;
  unit_price: number;
  amount: number;
}

/** A bill line's cells: season, time-of-use period, tier (from 1), quantity, unit, unit price, amount. */
export function billLineCells(line: BillLineCells): CsvValue[] {
  const tier = line.block_index === null ? null : line.block_index + 1;
  return [line.season, line.period, tier, line.quantity, line.unit, line.unit_price, line.amount];
}
