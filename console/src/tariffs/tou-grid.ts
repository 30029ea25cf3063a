import type { DayType, DsoSeason, Period, TouSchedule } from '../api/models.ts';

/** The rows of a week grid: the days of the week and the day type that applies to each. */
export const WEEK: { day: string; short: string; dayType: DayType }[] = [
  { day: 'Monday', short: 'Mon', dayType: 'WEEKDAY' },
  { day: 'Tuesday', short: 'Tue', dayType: 'WEEKDAY' },
  { day: 'Wednesday', short: 'Wed', dayType: 'WEEKDAY' },
  { day: 'Thursday', short: 'Thu', dayType: 'WEEKDAY' },
  { day: 'Friday', short: 'Fri', dayType: 'WEEKDAY' },
  { day: 'Saturday', short: 'Sat', dayType: 'SATURDAY' },
  { day: 'Sunday', short: 'Sun', dayType: 'SUNDAY' },
];

/** An hour of the grid: the periods of its two half hours (null where no rule covers one). */
export type HourCell = [Period | null, Period | null];

interface SeasonGrid {
  season: DsoSeason;
  /** One row per day of WEEK, 24 hours each. */
  rows: HourCell[][];
}

/** The period of each half hour of a day type in a season, from its rules (end exclusive). */
function halfHours(season: DsoSeason, dayType: DayType): (Period | null)[] {
  const periods = new Array<Period | null>(48).fill(null);
  for (const rule of season.tou_rules) {
    if (rule.day_type !== dayType) continue;
    for (let m = rule.start_minute; m < rule.end_minute; m += 30) periods[Math.floor(m / 30)] = rule.period;
  }
  return periods;
}

/** A week x 24-hour grid per season that has rules (a season without rules has nothing to show). */
export function scheduleGrids(schedule: TouSchedule): SeasonGrid[] {
  return schedule.seasons
    .filter((season) => season.tou_rules.length > 0)
    .map((season) => ({
      season,
      rows: WEEK.map(({ dayType }) => {
        const halves = halfHours(season, dayType);
        return Array.from({ length: 24 }, (_, h): HourCell => [halves[2 * h]!, halves[2 * h + 1]!]);
      }),
    }));
}

/** The hours of a row with their period, as text: "07:00-09:00 Peak" runs, for screen readers and tests. */
export function periodRuns(cells: HourCell[]): { from: string; to: string; period: Period | null }[] {
  const halves = cells.flat();
  const runs: { from: string; to: string; period: Period | null }[] = [];
  const clock = (half: number) => `${String(Math.floor(half / 2)).padStart(2, '0')}:${half % 2 ? '30' : '00'}`;
  let start = 0;
  for (let i = 1; i <= halves.length; i++) {
    if (i === halves.length || halves[i] !== halves[start]) {
      runs.push({ from: clock(start), to: i === 48 ? '24:00' : clock(i), period: halves[start]! });
      start = i;
    }
  }
  return runs;
}
