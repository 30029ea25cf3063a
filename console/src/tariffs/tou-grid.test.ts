import { describe, expect, it } from 'vitest';
import type { TouSchedule } from '../api/models.ts';
import { periodRuns, scheduleGrids } from './tou-grid.ts';

const rule = (
  day_type: 'WEEKDAY' | 'SATURDAY' | 'SUNDAY',
  period: 'PEAK' | 'STANDARD' | 'OFF_PEAK',
  from: number,
  to: number,
) => ({
  id: from,
  schedule_id: 3,
  season_id: 2,
  day_type,
  period,
  start_minute: from * 60,
  end_minute: to * 60,
});

const schedule: TouSchedule = {
  id: 3,
  dso_id: 1,
  is_active: true,
  name: 'Test',
  version: 1,
  tz: 'Africa/Johannesburg',
  holiday_default: 'SATURDAY',
  dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
  seasons: [
    {
      id: 2,
      dso_id: 1,
      label: 'SUMMER',
      date_start: '2025-09-01',
      date_end: '2026-05-31',
      tou_rules: [
        rule('WEEKDAY', 'OFF_PEAK', 0, 6),
        rule('WEEKDAY', 'STANDARD', 6, 7),
        rule('WEEKDAY', 'PEAK', 7, 9),
        { ...rule('WEEKDAY', 'STANDARD', 9, 24), end_minute: 1410 },
        rule('SUNDAY', 'OFF_PEAK', 0, 24),
      ],
    },
    { id: 4, dso_id: 1, label: 'ALL_YEAR', date_start: '2025-01-01', date_end: '2025-12-31', tou_rules: [] },
  ],
};

describe('the time-of-use grid', () => {
  it('has a week of 24 hours per season with rules, each hour with its two half hours', () => {
    const grids = scheduleGrids(schedule);
    expect(grids.map((g) => g.season.label)).toEqual(['SUMMER']);
    const monday = grids[0]!.rows[0]!;
    expect(monday[7]).toEqual(['PEAK', 'PEAK']);
    expect(monday[23]).toEqual(['STANDARD', null]);
    expect(grids[0]!.rows[5]!.every(([a, b]) => a === null && b === null)).toBe(true);
    expect(grids[0]!.rows[6]![12]).toEqual(['OFF_PEAK', 'OFF_PEAK']);
  });

  it('reads a row as runs of periods', () => {
    expect(periodRuns(scheduleGrids(schedule)[0]!.rows[0]!)).toEqual([
      { from: '00:00', to: '06:00', period: 'OFF_PEAK' },
      { from: '06:00', to: '07:00', period: 'STANDARD' },
      { from: '07:00', to: '09:00', period: 'PEAK' },
      { from: '09:00', to: '23:30', period: 'STANDARD' },
      { from: '23:30', to: '24:00', period: null },
    ]);
  });
});
