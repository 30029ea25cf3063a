import type { Period, TouSchedule } from '../api/models.ts';
import { titleCase } from '../lib/format.ts';
import { type HourCell, periodRuns, scheduleGrids, WEEK } from './tou-grid.ts';

const PERIODS: Period[] = ['PEAK', 'STANDARD', 'OFF_PEAK'];
const HOURS = Array.from({ length: 24 }, (_, h) => h);
const hourText = (h: number) => `${String(h).padStart(2, '0')}:00`;
const periodName = (period: Period | null) => (period ? titleCase(period) : 'No period');

function Cell({ cell, day, hour }: { cell: HourCell; day: string; hour: number }) {
  const [first, second] = cell;
  const label =
    first === second
      ? `${day} ${hourText(hour)} to ${hourText(hour + 1)}: ${periodName(first)}`
      : `${day} ${hourText(hour)}: ${periodName(first)}, from ${hourText(hour).replace(':00', ':30')}: ${periodName(second)}`;
  return (
    <td data-hour={hour} data-period={first ?? ''} title={label}>
      <span className="halves" aria-hidden="true">
        <span className={`period-${first ?? 'none'}`} />
        <span className={`period-${second ?? 'none'}`} />
      </span>
      <span className="visually-hidden">{label}</span>
    </td>
  );
}

/** Month and day of a season's recurring dates: 09-01. */
const monthDay = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'long', timeZone: 'UTC' });

/** A time-of-use schedule as a week x 24-hour grid per season, coloured by period. */
export function TouGrids({ schedule }: { schedule: TouSchedule }) {
  const grids = scheduleGrids(schedule);
  return (
    <>
      <p>
        {schedule.name} (version {schedule.version}
        {schedule.dso ? `, ${schedule.dso.name}` : ''}), times in {schedule.tz}. Public holidays count as{' '}
        {titleCase(schedule.holiday_default)} unless the holiday says otherwise.
      </p>
      <ul className="legend" aria-label="Periods">
        {PERIODS.map((p) => (
          <li key={p}>
            <span className={`swatch period-${p}`} aria-hidden="true" />
            {titleCase(p)}
          </li>
        ))}
      </ul>
      {grids.map(({ season, rows }) => (
        <section key={season.id} data-season={season.label} aria-labelledby={`season-${season.id}`}>
          <h3 id={`season-${season.id}`}>
            {titleCase(season.label)}: {monthDay(season.date_start)} to {monthDay(season.date_end)}
          </h3>
          <table className="tou">
            <caption className="visually-hidden">
              Periods of the {titleCase(season.label)} season by day of the week and hour
            </caption>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">Day</span>
                </th>
                {HOURS.map((h) => (
                  <th key={h} scope="col">
                    {h % 3 === 0 ? String(h).padStart(2, '0') : <span className="visually-hidden">{h}</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((cells, i) => (
                <tr
                  key={WEEK[i]!.day}
                  data-day={WEEK[i]!.day}
                  data-runs={periodRuns(cells)
                    .map((r) => `${r.from}-${r.to} ${r.period ?? 'NONE'}`)
                    .join('; ')}
                >
                  <th scope="row">
                    <abbr title={WEEK[i]!.day}>{WEEK[i]!.short}</abbr>
                  </th>
                  {cells.map((cell, h) => (
                    <Cell key={HOURS[h]} cell={cell} day={WEEK[i]!.day} hour={h} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      {schedule.seasons
        .filter((s) => s.tou_rules.length === 0)
        .map((s) => (
          <p key={s.id} className="muted">
            The {titleCase(s.label)} season has no time-of-use rules.
          </p>
        ))}
    </>
  );
}
