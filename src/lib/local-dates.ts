import { fromLocalMs, toLocalMs } from './time-zone.ts';

/** The local date (YYYY-MM-DD) of an instant in the zone. */
export function localDate(timeZone: string, utcMs: number): string {
  return new Date(toLocalMs(timeZone, utcMs)).toISOString().slice(0, 10);
}

/** The instant a local date (YYYY-MM-DD) begins in the zone. */
export function localMidnight(timeZone: string, isoDate: string): number {
  return fromLocalMs(timeZone, Date.parse(`${isoDate}T00:00:00Z`));
}
