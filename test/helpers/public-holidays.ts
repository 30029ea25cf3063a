/**
 * South African public holidays (Public Holidays Act 36 of 1994) and Eskom's day-type treatment,
 * computed from the Act's rules: the oracle the seeded holiday table is checked against.
 */

import type { DayType } from '../../src/modules/reference/reference.model.ts';

interface PublicHoliday {
  on_date: string;
  name: string;
  /** The day type the date is charged as; null leaves it to the schedule's holiday_default. */
  day_type_override: DayType | null;
}

interface HolidayRule {
  name: string;
  override: DayType | null;
  date: (year: number, easter: string) => string;
}

const DAY_MS = 86_400_000;

function isoDate(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(date) + days * DAY_MS).toISOString().slice(0, 10);
}

function isSunday(date: string): boolean {
  return new Date(Date.parse(date)).getUTCDay() === 0;
}

/** Easter Sunday of a Gregorian year ('YYYY-MM-DD'), by the anonymous Gregorian algorithm. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return isoDate(year, month, day);
}

function fixed(name: string, month: number, day: number, override: DayType | null): HolidayRule {
  return { name, override, date: (year) => isoDate(year, month, day) };
}

function fromEaster(name: string, offsetDays: number, override: DayType | null): HolidayRule {
  return { name, override, date: (_year, easter) => addDays(easter, offsetDays) };
}

// Human Rights Day and Women's Day have no confirmed Eskom treatment: null defers to the schedule.
const RULES: readonly HolidayRule[] = [
  fixed("New Year's Day", 1, 1, 'SUNDAY'),
  fixed('Human Rights Day', 3, 21, null),
  fromEaster('Good Friday', -2, 'SUNDAY'),
  fromEaster('Family Day', 1, 'SUNDAY'),
  fixed('Freedom Day', 4, 27, 'SATURDAY'),
  fixed("Workers' Day", 5, 1, 'SATURDAY'),
  fixed('Youth Day', 6, 16, 'SATURDAY'),
  fixed("National Women's Day", 8, 9, null),
  fixed('Heritage Day', 9, 24, 'SATURDAY'),
  fixed('Day of Reconciliation', 12, 16, 'SATURDAY'),
  fixed('Christmas Day', 12, 25, 'SUNDAY'),
  fixed('Day of Goodwill', 12, 26, 'SUNDAY'),
];

/**
 * The statutory holidays of a year, by date. A holiday on a Sunday makes the next Monday a holiday
 * (charged as Saturday), unless that Monday is a holiday already (Christmas on a Sunday): the Act
 * adds nothing then, and a day declared in its place is a one-off.
 */
export function southAfricanPublicHolidays(year: number): PublicHoliday[] {
  const easter = easterSunday(year);
  const holidays: PublicHoliday[] = RULES.map((rule) => ({
    on_date: rule.date(year, easter),
    name: rule.name,
    day_type_override: rule.override,
  }));
  const taken = new Set(holidays.map((h) => h.on_date));
  const observed: PublicHoliday[] = holidays
    .filter((h) => isSunday(h.on_date) && !taken.has(addDays(h.on_date, 1)))
    .map((h) => ({ on_date: addDays(h.on_date, 1), name: `${h.name} (observed)`, day_type_override: 'SATURDAY' }));
  return [...holidays, ...observed].sort((x, y) => x.on_date.localeCompare(y.on_date));
}
