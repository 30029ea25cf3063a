import { locale } from './locale.ts';

/** Numbers, money, dates and times in the console's one locale (lib/locale.ts), on a 24-hour clock. */

const formats = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: (tag: string) => F): F {
  const tag = locale();
  const full = `${tag}|${key}`;
  let format = formats.get(full) as F | undefined;
  if (!format) {
    format = make(tag);
    formats.set(full, format);
  }
  return format;
}

const numberFormat = (key: string, options: Intl.NumberFormatOptions) =>
  // A value that rounds to zero reads 0, never -0.
  cached(`n${key}`, (tag) => new Intl.NumberFormat(tag, { signDisplay: 'negative', ...options }));

export function formatNumber(value: number, decimals = 1): string {
  return numberFormat(`${decimals}`, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
}

export function formatMoney(amount: number, currency: string): string {
  return numberFormat(`c${currency}`, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' }).format(amount);
}

/** The currency's short symbol: R for ZAR, $ for USD. */
export function currencySymbol(currency: string): string {
  return (
    numberFormat(`c${currency}`, { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
      .formatToParts(0)
      .find((part) => part.type === 'currency')?.value ?? currency
  );
}

/** Up to 2 decimals, as an axis labels its values. */
export function formatAxisNumber(value: number): string {
  return numberFormat('axis', { maximumFractionDigits: 2 }).format(value);
}

/** As prices are given, up to 6 decimals, and at least the cents: "34,30", "3,2928". */
export function formatPrice(value: number): string {
  return numberFormat('p', { minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(value);
}

/** A price per unit: "R 3,2928/kWh", "R 34,30/day". */
export function formatUnitPrice(value: number, currency: string, unit: string): string {
  return `${currencySymbol(currency)} ${formatPrice(value)}/${unit}`;
}

const dateTimeFormat = (key: string, options: Intl.DateTimeFormatOptions) =>
  cached(`d${key}`, (tag) => new Intl.DateTimeFormat(tag, { hourCycle: 'h23', ...options }));

/** An instant as the local date and time of a zone: "1 Oct 2026, 14:30". */
export function formatDateTime(instant: string | number, tz: string, withDate = true): string {
  return dateTimeFormat(`${tz}${withDate}`, {
    timeZone: tz,
    ...(withDate ? { day: 'numeric', month: 'short', year: 'numeric' } : {}),
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(instant));
}

/** An instant's local date in a zone: "1 Oct 2026". */
export function formatDate(instant: string | number, tz: string): string {
  return dateTimeFormat(`${tz}date`, { timeZone: tz, day: 'numeric', month: 'short', year: 'numeric' }).format(
    new Date(instant),
  );
}

/** A period [start, end) as its first and last local days: "1 Oct 2026 – 31 Oct 2026". */
export function formatPeriod(start: string, end: string, tz: string): string {
  return `${formatDate(start, tz)} – ${formatDate(Date.parse(end) - 1, tz)}`;
}

/** Any date-time parts, in the console's locale and on a 24-hour clock. */
export function dateTimeFormatOf(tz: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return dateTimeFormat(`${tz}${JSON.stringify(options)}`, { timeZone: tz, ...options });
}

/** YYYY-MM as a month's name and year. */
export function formatMonth(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return dateTimeFormatOf('UTC', { month: 'short', year: 'numeric' }).format(Date.UTC(year!, number! - 1, 15));
}

/** PEAK_ENERGY as "Peak energy". */
export const titleCase = (code: string) =>
  code.charAt(0).toUpperCase() + code.slice(1).toLowerCase().replaceAll('_', ' ');

/** "1 reading", "2 readings". */
export const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
