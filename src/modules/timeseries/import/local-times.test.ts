import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LocalTimeError, localTimeReader } from './local-times.ts';

/** The local time of an instant in a zone, as a spreadsheet writes it (2026-11-25 08:00:00). */
function localText(instant: number, timeZone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).format(instant);
}

describe('local times in a time zone', () => {
  it.each(['Africa/Johannesburg', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata'])(
    'reads the local time of any instant in %s back as that instant, or says it happens twice',
    (timeZone) => {
      const read = localTimeReader(timeZone);
      const minute = fc.integer({ min: Date.UTC(1971, 0, 1) / 60_000, max: Date.UTC(2099, 0, 1) / 60_000 });
      fc.assert(
        fc.property(minute, (minutes) => {
          const instant = minutes * 60_000;
          const text = localText(instant, timeZone);
          try {
            expect(read(text)).toBe(instant);
          } catch (error) {
            // The clocks went back: the same local time 30 minutes or an hour before or after.
            expect(error).toBeInstanceOf(LocalTimeError);
            expect((error as Error).message).toContain('happens twice');
            const shifts = [-3_600_000, -1_800_000, 1_800_000, 3_600_000];
            expect(shifts.some((shift) => localText(instant + shift, timeZone) === text)).toBe(true);
          }
        }),
        { numRuns: 2000 },
      );
    },
  );
});
