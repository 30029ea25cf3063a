import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoWriter } from './iso-time.ts';

const MAX_TIME = 8.64e15;

describe('isoWriter', () => {
  it('writes any instant as toISOString does, whatever the instant written before', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -MAX_TIME, max: MAX_TIME }), { minLength: 1 }), (times) => {
        const write = isoWriter();
        for (const time of times) expect(write(time)).toBe(new Date(time).toISOString());
      }),
    );
  });

  it('writes consecutive buckets across days, years and the ends of the calendar', () => {
    const write = isoWriter();
    const starts = [
      Date.UTC(1969, 11, 31, 22, 59, 59, 999),
      Date.UTC(2024, 1, 28, 23, 7, 1, 234),
      // Whole minutes, as buckets start: written from a table of the day's minutes.
      Date.UTC(2026, 9, 31, 21, 0),
      -MAX_TIME,
      MAX_TIME - 86_400_000,
    ];
    for (const start of starts)
      for (let i = 0; i < 200; i++) {
        const time = start + i * 7 * 60_000;
        if (time <= MAX_TIME) expect(write(time)).toBe(new Date(time).toISOString());
      }
  });
});
