import { fromLocalMs, toLocalMs } from '../../../src/lib/time-zone.ts';

/**
 * Calendar time in an IANA time zone with the browser's Intl only: local dates, the instants of
 * local times (daylight saving included), and the local parts of an instant.
 */

export interface LocalDate {
  year: number;
  /** 1 to 12. */
  month: number;
  day: number;
}

interface LocalParts extends LocalDate {
  hour: number;
  minute: number;
  /** 1 = Monday ... 7 = Sunday (ISO). */
  weekday: number;
}

const DAY_MS = 86_400_000;

/** True when the browser knows the zone. */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The local date, time and weekday of an instant in tz. */
export function localParts(instant: number, tz: string): LocalParts {
  const local = new Date(toLocalMs(tz, instant));
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    weekday: ((local.getUTCDay() + 6) % 7) + 1,
  };
}

/**
 * The instant at which tz's clock shows the date and time (the pricing engine's clock, shared); a
 * time skipped by a daylight-saving change resolves to the instant after the gap.
 */
export function instantOf(date: LocalDate, tz: string, hour = 0, minute = 0): number {
  return fromLocalMs(tz, Date.UTC(date.year, date.month - 1, date.day, hour, minute));
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function addMonths(date: LocalDate, months: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1 + months, 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: 1 };
}

/** 1 = Monday ... 7 = Sunday. */
export function weekdayOf(date: LocalDate): number {
  return ((new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7) + 1;
}

export function daysBetween(from: LocalDate, to: LocalDate): number {
  return Math.round((Date.UTC(to.year, to.month - 1, to.day) - Date.UTC(from.year, from.month - 1, from.day)) / DAY_MS);
}

export function today(tz: string): LocalDate {
  const { year, month, day } = localParts(Date.now(), tz);
  return { year, month, day };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** YYYY-MM-DD. */
export function isoDate(date: LocalDate): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** YYYY-MM. */
export function isoMonth(date: LocalDate): string {
  return isoDate(date).slice(0, 7);
}

/** A YYYY-MM-DD text as a date; null when it is not a real date. */
export function parseIsoDate(text: string | null | undefined): LocalDate | null {
  const found = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text ?? '');
  if (!found) return null;
  const date = { year: Number(found[1]), month: Number(found[2]), day: Number(found[3]) };
  return isoDate(addDays(date, 0)) === text ? date : null;
}
