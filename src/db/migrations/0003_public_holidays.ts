import { type PublicHoliday, southAfricanPublicHolidays } from '../../modules/reference/holidays.ts';
import type { CodeMigration } from '../types.ts';

const FIRST_YEAR = 2024;
const LAST_YEAR = 2030;

/**
 * Days declared by proclamation. Later ones (an election day, a day declared in place of a Sunday
 * holiday) need no code: a later migration inserts them as plain rows per DSO,
 * INSERT INTO dso_public_holidays (dso_id, on_date, name, day_type_override) VALUES (...).
 */
const ONE_OFF_HOLIDAYS: readonly PublicHoliday[] = [
  { on_date: '2024-05-29', name: 'General election day', day_type_override: null },
];

/** Public holidays of 2024 to 2030 for every DSO seeded so far. */
export const migration: CodeMigration = {
  async up(tx) {
    const years = Array.from({ length: LAST_YEAR - FIRST_YEAR + 1 }, (_, i) => FIRST_YEAR + i);
    const holidays = [...years.flatMap((year) => southAfricanPublicHolidays(year)), ...ONE_OFF_HOLIDAYS];
    const dates = holidays.map((h) => h.on_date);
    const names = holidays.map((h) => h.name);
    const overrides = holidays.map((h) => h.day_type_override);

    const dsos = await tx.query<{ id: number }>('SELECT id FROM dsos ORDER BY id');
    for (const dso of dsos) {
      await tx.query(
        `INSERT INTO dso_public_holidays (dso_id, on_date, name, day_type_override)
         SELECT $1, h.on_date, h.name, h.day_type_override
         FROM unnest($2::date[], $3::text[], $4::text[]) AS h (on_date, name, day_type_override)`,
        [dso.id, dates, names, overrides],
      );
    }
  },
};
