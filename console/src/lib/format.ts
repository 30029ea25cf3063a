/** Numbers and money as the reader's language writes them. */

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(undefined, options);
    numberFormats.set(key, format);
  }
  return format;
}

export function formatNumber(value: number, decimals = 1): string {
  return numberFormat(`n${decimals}`, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(
    value,
  );
}

export function formatMoney(amount: number, currency: string): string {
  return numberFormat(`c${currency}`, { style: 'currency', currency }).format(amount);
}

/** Up to 6 decimals, as prices are given. */
export function formatPrice(value: number): string {
  return numberFormat('p', { maximumFractionDigits: 6 }).format(value);
}

const dateTimes = new Map<string, Intl.DateTimeFormat>();

/** An instant as the local date and time of a zone. */
export function formatDateTime(instant: string | number, tz: string, withDate = true): string {
  const key = `${tz}${withDate}`;
  let format = dateTimes.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, {
      timeZone: tz,
      ...(withDate ? { dateStyle: 'medium' } : {}),
      timeStyle: 'short',
    });
    dateTimes.set(key, format);
  }
  return format.format(new Date(instant));
}

/** YYYY-MM as a month's name and year. */
export function formatMonth(month: string): string {
  const [year, number] = month.split('-').map(Number);
  return new Date(Date.UTC(year!, number! - 1, 15)).toLocaleDateString(undefined, {
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** PEAK_ENERGY as "Peak energy". */
export const titleCase = (code: string) =>
  code.charAt(0).toUpperCase() + code.slice(1).toLowerCase().replaceAll('_', ' ');

/** "1 reading", "2 readings". */
export const counted = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;
