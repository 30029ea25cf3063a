import { instantsOfWall, utcOffsetMs } from '../../../lib/time-zone.ts';

/**
 * Local times of a readings file (spreadsheets write `2026-11-25 08:00`, without a UTC offset),
 * read in a named IANA time zone with the service's time-zone engine (src/lib/time-zone.ts, also
 * the console's).
 */

/** A date and a time of day without offset: `T` or a space between them, seconds and up to 3 decimals optional. */
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

export function isLocalDateTime(text: string): boolean {
  return LOCAL_DATE_TIME.test(text);
}

/** A local time that names no instant in its zone, or two: the message says which and why. */
export class LocalTimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalTimeError';
  }
}

/** The local time of text, as if it were UTC, in ms; NaN when it is no date (2026-02-30, 25:00). */
function wallClockMs(text: string): number {
  const [, year, month, day, hour, minute, second = '0', fraction = ''] = LOCAL_DATE_TIME.exec(text) ?? [];
  const parts = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = parts;
  const ms = Number(fraction.padEnd(3, '0'));
  const wall = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const date = new Date(wall);
  const exact =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  return exact ? wall : Number.NaN;
}

/**
 * Reads local times of one zone as instants (ms since 1970 UTC). A time the clocks skip (a gap
 * when they go forward) or show twice (when they go back) throws a LocalTimeError: it names no
 * single instant, and a guess would put a reading in the wrong hour.
 */
export function localTimeReader(timeZone: string): (text: string) => number {
  return (text: string): number => {
    const wall = wallClockMs(text);
    if (Number.isNaN(wall)) throw new LocalTimeError(`"${text}" is not a date and time`);
    const instants = instantsOfWall(timeZone, wall);
    if (instants.length === 1) return instants[0]!;
    if (instants.length === 0) {
      throw new LocalTimeError(`"${text}" does not exist in ${timeZone}: the clocks skip it (they go forward)`);
    }
    const offsets = instants.map((instant) => utcOffset(utcOffsetMs(timeZone, instant))).join(' or ');
    throw new LocalTimeError(
      `"${text}" happens twice in ${timeZone} (the clocks go back): write it with its UTC offset (${offsets})`,
    );
  };
}

/** An offset in ms as ±HH:MM. */
function utcOffset(ms: number): string {
  const minutes = Math.abs(ms) / 60_000;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${ms < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}
