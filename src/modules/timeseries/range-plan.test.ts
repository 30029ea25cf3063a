import { describe, expect, it } from 'vitest';
import { planBucketSegments, planSegments } from './range-plan.ts';

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

describe('planBucketSegments', () => {
  const planBuckets = (starts: string[], start: string, end: string) =>
    planBucketSegments(
      starts.map((s) => d(s).getTime()),
      d(start),
      d(end),
    ).map((s) => [s.source, s.from.toISOString().slice(8, 16), s.to.toISOString().slice(8, 16)]);

  it('reads whole UTC days across buckets of UTC days as one segment', () => {
    expect(planBuckets(['01T00:00', '02T00:00', '03T00:00'], '01T00:00', '04T00:00')).toEqual([
      ['daily', '01T00:00', '04T00:00'],
    ]);
  });

  it('keeps each UTC day inside one bucket: local days of UTC+2 are read as hours', () => {
    expect(planBuckets(['01T22:00', '02T22:00'], '01T22:00', '03T22:00')).toEqual([['hourly', '01T22:00', '03T22:00']]);
  });

  it('reads whole UTC days inside a longer bucket, hours at its edges', () => {
    expect(planBuckets(['01T22:00', '05T22:00'], '01T22:00', '07T00:00')).toEqual([
      ['hourly', '01T22:00', '02T00:00'],
      ['daily', '02T00:00', '05T00:00'],
      ['hourly', '05T00:00', '06T00:00'],
      ['daily', '06T00:00', '07T00:00'],
    ]);
  });

  it('reads raw readings where a bucket edge cuts an hour (a half-hour offset)', () => {
    expect(planBuckets(['01T18:30', '02T18:30'], '01T18:30', '03T18:30')).toEqual([
      ['raw', '01T18:30', '01T19:00'],
      ['hourly', '01T19:00', '02T18:00'],
      ['raw', '02T18:00', '02T19:00'],
      ['hourly', '02T19:00', '03T18:00'],
      ['raw', '03T18:00', '03T18:30'],
    ]);
  });

  it('starts at start and ends at end, inside the first and last buckets', () => {
    expect(planBuckets(['01T00:00', '02T00:00'], '01T10:30', '02T05:00')).toEqual([
      ['raw', '01T10:30', '01T11:00'],
      ['hourly', '01T11:00', '02T05:00'],
    ]);
  });
});
