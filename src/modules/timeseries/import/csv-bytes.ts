import { isWithinInstantRange, MAX_OFFSET_MINUTES } from '../../../http/fields.ts';

/**
 * Readers of CSV fields in place, in the bytes of a line: the plain forms that make up nearly
 * every file, read without a string per field. Each answers NaN for any other form, which the
 * caller then reads as text.
 */

const ZERO = 48;
const NINE = 57;
const POINT = 46;
const isDigit = (byte: number) => byte >= ZERO && byte <= NINE;

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k);

/**
 * A plain decimal (digits with at most one point) of at most 15 digits and 22 decimals, exactly
 * as Number() reads it: the digits make an integer below 2^53 and 10^k is exact, so their
 * quotient is the correctly rounded value.
 */
export function decimalAt(bytes: Uint8Array, start: number, end: number): number {
  let mantissa = 0;
  let digits = 0;
  let decimals = -1;
  for (let i = start; i < end; i++) {
    const byte = bytes[i]!;
    if (isDigit(byte)) {
      mantissa = mantissa * 10 + (byte - ZERO);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (byte === POINT && decimals < 0) decimals = 0;
    else return Number.NaN;
  }
  if (digits === 0 || digits > 15 || decimals > 22) return Number.NaN;
  return decimals > 0 ? mantissa / POWERS_OF_TEN[decimals]! : mantissa;
}

/** The number written by the digits bytes[start, start + count), NaN if one is not a digit. */
function digitsAt(bytes: Uint8Array, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const byte = bytes[i]!;
    if (!isDigit(byte)) return Number.NaN;
    value = value * 10 + (byte - ZERO);
  }
  return value;
}

const DAY_MS = 86_400_000;

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (year >= 1). */
function daysFromEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

const at = (bytes: Uint8Array, i: number, char: string) => bytes[i] === char.charCodeAt(0);

/**
 * An ISO 8601 date-time YYYY-MM-DDTHH:MM:SS[.f to .fff](Z|±HH:MM up to ±15:59) as milliseconds since 1970
 * UTC: the texts the timestamp schema accepts that have at most 3 decimals of a second, read as
 * the same time (NaN outside its range too).
 */
export function isoTimeAt(bytes: Uint8Array, start: number, end: number): number {
  if (end - start < 20 || !at(bytes, start + 4, '-') || !at(bytes, start + 7, '-') || !at(bytes, start + 10, 'T')) {
    return Number.NaN;
  }
  if (!at(bytes, start + 13, ':') || !at(bytes, start + 16, ':')) return Number.NaN;
  const year = digitsAt(bytes, start, 4);
  const month = digitsAt(bytes, start + 5, 2);
  const day = digitsAt(bytes, start + 8, 2);
  const hour = digitsAt(bytes, start + 11, 2);
  const minute = digitsAt(bytes, start + 14, 2);
  const second = digitsAt(bytes, start + 17, 2);
  if (!(year >= 1 && month >= 1 && month <= 12 && day >= 1)) return Number.NaN;
  if (!(day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59)) return Number.NaN;
  let i = start + 19;
  let ms = 0;
  if (at(bytes, i, '.')) {
    const decimals = zoneStart(bytes, i + 1, end) - i - 1;
    if (decimals < 1 || decimals > 3) return Number.NaN;
    ms = digitsAt(bytes, i + 1, decimals) * POWERS_OF_TEN[3 - decimals]!;
    i += 1 + decimals;
  }
  let offsetMinutes = 0;
  if (at(bytes, i, '+') || at(bytes, i, '-')) {
    if (i + 6 !== end || !at(bytes, i + 3, ':')) return Number.NaN;
    const hours = digitsAt(bytes, i + 1, 2);
    const minutes = digitsAt(bytes, i + 4, 2);
    if (!(minutes <= 59 && hours * 60 + minutes <= MAX_OFFSET_MINUTES)) return Number.NaN;
    offsetMinutes = (at(bytes, i, '-') ? -1 : 1) * (hours * 60 + minutes);
  } else if (!(at(bytes, i, 'Z') && i + 1 === end)) return Number.NaN;
  const time =
    daysFromEpoch(year, month, day) * DAY_MS + ((hour * 60 + minute - offsetMinutes) * 60 + second) * 1000 + ms;
  return isWithinInstantRange(time) ? time : Number.NaN;
}

/** Where the zone of a date-time (Z or ±HH:MM) starts, searching from start: end when none. */
function zoneStart(bytes: Uint8Array, start: number, end: number): number {
  for (let i = start; i < end; i++) if (!isDigit(bytes[i]!)) return i;
  return end;
}
