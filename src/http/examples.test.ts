import { describe, expect, it } from 'vitest';
import { lastWholeMonth } from './examples.ts';

describe('the period of the examples', () => {
  it('is the last whole calendar month at UTC+2, as instants in UTC', () => {
    expect(lastWholeMonth(new Date('2026-11-23T12:00:00Z'))).toEqual({
      start: '2026-09-30T22:00:00Z',
      end: '2026-10-31T22:00:00Z',
    });
  });

  it('follows the local date: 1 November 00:30 at UTC+2 is still 31 October in UTC', () => {
    expect(lastWholeMonth(new Date('2026-10-31T22:30:00Z'))).toEqual({
      start: '2026-09-30T22:00:00Z',
      end: '2026-10-31T22:00:00Z',
    });
    expect(lastWholeMonth(new Date('2026-10-31T21:30:00Z')).start).toBe('2026-08-31T22:00:00Z');
  });

  it('crosses the new year', () => {
    expect(lastWholeMonth(new Date('2027-01-10T00:00:00Z'), 0)).toEqual({
      start: '2026-12-01T00:00:00Z',
      end: '2027-01-01T00:00:00Z',
    });
  });
});
