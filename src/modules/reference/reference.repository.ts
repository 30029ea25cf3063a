import type { Executor } from '../../db/types.ts';
import type { Dso } from './vocabulary.ts';

interface ScheduleRow {
  id: number;
  dso_id: number;
  name: string;
  version: number;
  tz: string;
  is_active: boolean;
  holiday_default: string;
}

interface SeasonRow {
  id: number;
  dso_id: number;
  label: string;
  date_start: string;
  date_end: string;
}

/** A time-of-use rule as stored and answered. */
export interface RuleRow {
  id: number;
  schedule_id: number;
  season_id: number;
  day_type: string;
  period: string;
  start_minute: number;
  end_minute: number;
}

const SCHEDULE_COLUMNS = 'id, dso_id, name, version, tz, is_active, holiday_default';
const DAY_TYPE_ORDER = `array_position(ARRAY['WEEKDAY', 'SATURDAY', 'SUNDAY', 'PUBLIC_HOLIDAY'], day_type)`;

/** Each schedule with its DSO and the DSO's seasons, each season with the schedule's rules for it. */
async function withSeasonsAndRules(db: Executor, schedules: ScheduleRow[]) {
  if (schedules.length === 0) return [];
  const dsoIds = [...new Set(schedules.map((s) => s.dso_id))];
  const [dsos, seasons, rules] = await Promise.all([
    db.query<Dso>('SELECT id, name, tz FROM dsos WHERE id = ANY($1::int[])', [dsoIds]),
    db.query<SeasonRow>(
      'SELECT id, dso_id, label, date_start, date_end FROM dso_seasons WHERE dso_id = ANY($1::int[]) ORDER BY id',
      [dsoIds],
    ),
    db.query<RuleRow>(
      `SELECT id, schedule_id, season_id, day_type, period, start_minute, end_minute FROM tou_rules
       WHERE schedule_id = ANY($1::int[]) ORDER BY season_id, ${DAY_TYPE_ORDER}, start_minute`,
      [schedules.map((s) => s.id)],
    ),
  ]);
  return schedules.map((schedule) => ({
    ...schedule,
    dso: dsos.find((d) => d.id === schedule.dso_id) ?? null,
    seasons: seasons
      .filter((season) => season.dso_id === schedule.dso_id)
      .map((season) => ({
        ...season,
        tou_rules: rules.filter((r) => r.schedule_id === schedule.id && r.season_id === season.id),
      })),
  }));
}

export const referenceRepository = {
  itemTypes(db: Executor) {
    return db.query<{ code: string; displayName: string; unit: string }>(
      'SELECT code, display_name AS "displayName", unit FROM tariff_item_types ORDER BY code',
    );
  },

  dsos(db: Executor) {
    return db.query<Dso>('SELECT id, name, tz FROM dsos ORDER BY id');
  },

  async findDso(db: Executor, id: number) {
    const [row] = await db.query<Dso>('SELECT id, name, tz FROM dsos WHERE id = $1', [id]);
    return row;
  },

  async scheduleExists(db: Executor, id: number) {
    return (await db.query('SELECT 1 FROM tou_schedules WHERE id = $1', [id])).length > 0;
  },

  async schedules(db: Executor, dsoId: number | undefined) {
    const rows = await db.query<ScheduleRow>(
      `SELECT ${SCHEDULE_COLUMNS} FROM tou_schedules WHERE $1::int IS NULL OR dso_id = $1 ORDER BY id`,
      [dsoId ?? null],
    );
    return withSeasonsAndRules(db, rows);
  },

  async findSchedule(db: Executor, id: number) {
    const rows = await db.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM tou_schedules WHERE id = $1`, [id]);
    const [schedule] = await withSeasonsAndRules(db, rows);
    return schedule;
  },
};
