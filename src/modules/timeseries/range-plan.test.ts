import { describe, expect, it } from 'vitest';
import { planSegments } from './range-plan.ts';

const d = (iso: string) => new Date(`2026-01-${iso}Z`);
const plan = (start: string, end: string, bucket?: number) =>
  planSegments(d(start), d(end), bucket).map((s) => [
    s.source,
    s.from.toISOString().slice(8, 16),
    s.to.toISOString().slice(8, 16),
  ]);

describe('planSegments', () => {
  it('covers a sum with whole days, then whole hours, then raw readings at both edges', () => {
    expect(plan('01T22:30', '04T01:15')).toEqual([
      ['raw', '01T22:30', '01T23:00'],
      ['hourly', '01T23:00', '02T00:00'],
      ['daily', '02T00:00', '04T00:00'],
      ['hourly', '04T00:00', '04T01:00'],
      ['raw', '04T01:00', '04T01:15'],
    ]);
  });

  it('uses raw readings alone for a range inside one hour', () => {
    expect(plan('01T10:05', '01T10:55')).toEqual([['raw', '01T10:05', '01T10:55']]);
  });

  it('uses hours for buckets that are a multiple of an hour from an hour-aligned start', () => {
    expect(plan('01T06:00', '02T07:30', 180)).toEqual([
      ['hourly', '01T06:00', '02T07:00'],
      ['raw', '02T07:00', '02T07:30'],
    ]);
  });

  it('uses days only for daily buckets from midnight', () => {
    expect(plan('01T00:00', '03T05:00', 1440)).toEqual([
      ['daily', '01T00:00', '03T00:00'],
      ['hourly', '03T00:00', '03T05:00'],
    ]);
    expect(plan('01T06:00', '03T05:00', 1440)).toEqual([['hourly', '01T06:00', '03T05:00']]);
  });

  it('uses raw readings when buckets would cut through hours', () => {
    expect(plan('01T00:30', '02T00:00', 60)).toEqual([['raw', '01T00:30', '02T00:00']]);
    expect(plan('01T00:00', '02T00:00', 45)).toEqual([['raw', '01T00:00', '02T00:00']]);
  });
});
