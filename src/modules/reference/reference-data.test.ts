import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedTemplateDump } from '../../../test/helpers/embedded-template.ts';
import { easterSunday, southAfricanPublicHolidays } from '../../../test/helpers/public-holidays.ts';

const CATALOGUE_ACCOUNT = 'ca7a1060-0000-4000-8000-000000000001';

let db: PGlite;

async function rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(text, params)).rows;
}

// A freshly migrated database: a copy of the template every test file starts from.
beforeAll(async () => {
  const loadDataDir = new Blob([await readFile(await embeddedTemplateDump())]);
  db = await PGlite.create({ extensions: { pg_trgm, btree_gist }, loadDataDir });
}, 60_000);

afterAll(async () => {
  await db?.close();
});

describe('easterSunday', () => {
  it.each([
    [2024, '2024-03-31'],
    [2025, '2025-04-20'],
    [2026, '2026-04-05'],
    [2027, '2027-03-28'],
    [2028, '2028-04-16'],
    [2029, '2029-04-01'],
    [2030, '2030-04-21'],
  ])('%i is %s', (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });
});

describe('southAfricanPublicHolidays', () => {
  it('lists the 12 statutory holidays plus observed Mondays, by date', () => {
    const y2025 = southAfricanPublicHolidays(2025);
    expect(y2025.map((h) => h.on_date)).toEqual([
      '2025-01-01',
      '2025-03-21',
      '2025-04-18',
      '2025-04-21',
      '2025-04-27',
      '2025-04-28',
      '2025-05-01',
      '2025-06-16',
      '2025-08-09',
      '2025-09-24',
      '2025-12-16',
      '2025-12-25',
      '2025-12-26',
    ]);
    expect(y2025.find((h) => h.on_date === '2025-04-28')).toEqual({
      on_date: '2025-04-28',
      name: 'Freedom Day (observed)',
      day_type_override: 'SATURDAY',
    });
  });

  it("applies Eskom's day-type treatment", () => {
    const byName = new Map(southAfricanPublicHolidays(2026).map((h) => [h.name, h.day_type_override]));
    expect(byName.get('Good Friday')).toBe('SUNDAY');
    expect(byName.get('Family Day')).toBe('SUNDAY');
    expect(byName.get("New Year's Day")).toBe('SUNDAY');
    expect(byName.get('Freedom Day')).toBe('SATURDAY');
    expect(byName.get('Heritage Day')).toBe('SATURDAY');
    expect(byName.get('Human Rights Day')).toBeNull();
    expect(byName.get("National Women's Day (observed)")).toBe('SATURDAY');
  });

  it('adds no observed day when the Monday is a holiday already', () => {
    // Christmas 2033 falls on a Sunday; the Monday is the Day of Goodwill.
    const december = southAfricanPublicHolidays(2033).filter((h) => h.on_date >= '2033-12-25');
    expect(december.map((h) => h.name)).toEqual(['Christmas Day', 'Day of Goodwill']);
  });
});

describe('reference data', () => {
  it('has the 24 tariff item types with units', async () => {
    const types = await rows<{ code: string; unit: string }>('SELECT code, unit FROM tariff_item_types');
    expect(types).toHaveLength(24);
    const unit = new Map(types.map((t) => [t.code, t.unit]));
    expect(unit.get('TOU_PEAK_ENERGY')).toBe('kWh');
    expect(unit.get('NETWORK_CAPACITY')).toBe('kVA');
    expect(unit.get('SERVICE')).toBe('day');
    expect(unit.get('WATER_CONSUMPTION')).toBe('kL');
    expect(unit.get('SEWERAGE')).toBe('kL');
    expect(unit.get('REACTIVE_ENERGY')).toBe('kvarh');
  });

  it("has schedule 3 as Eskom's current schedule, with an older inactive version", async () => {
    const schedules = await rows<{ id: number; dso: string; name: string; version: number; is_active: boolean }>(
      `SELECT s.id, d.name AS dso, s.name, s.version, s.is_active
       FROM tou_schedules s JOIN dsos d ON d.id = s.dso_id ORDER BY s.id`,
    );
    const current = schedules.find((s) => s.id === 3);
    expect(current).toMatchObject({ dso: 'Eskom', is_active: true });
    const versions = schedules.filter((s) => s.dso === 'Eskom' && s.name === current?.name);
    expect(Math.max(...versions.map((s) => s.version))).toBe(current?.version);
    expect(versions.some((s) => s.id !== 3 && !s.is_active)).toBe(true);
  });

  it("has Eskom's 2025/26 weekday peaks in schedule 3", async () => {
    const peaks = await rows<{ label: string; start_minute: number; end_minute: number }>(
      `SELECT ds.label, r.start_minute, r.end_minute FROM tou_rules r JOIN dso_seasons ds ON ds.id = r.season_id
       WHERE r.schedule_id = 3 AND r.day_type = 'WEEKDAY' AND r.period = 'PEAK' ORDER BY ds.label, r.start_minute`,
    );
    expect(peaks).toEqual([
      { label: 'SUMMER', start_minute: 420, end_minute: 540 },
      { label: 'SUMMER', start_minute: 1080, end_minute: 1260 },
      { label: 'WINTER', start_minute: 360, end_minute: 480 },
      { label: 'WINTER', start_minute: 1020, end_minute: 1200 },
    ]);
  });

  it('covers every day of each schedule, season and day type exactly once', async () => {
    const rules = await rows<{
      schedule_id: number;
      season_id: number;
      day_type: string;
      start_minute: number;
      end_minute: number;
    }>('SELECT schedule_id, season_id, day_type, start_minute, end_minute FROM tou_rules ORDER BY start_minute');
    const schedules = await rows<{ id: number; dso_id: number }>('SELECT id, dso_id FROM tou_schedules');
    const seasons = await rows<{ id: number; dso_id: number }>('SELECT id, dso_id FROM dso_seasons');
    expect(schedules.length).toBeGreaterThanOrEqual(2);

    for (const schedule of schedules) {
      const own = rules.filter((r) => r.schedule_id === schedule.id);
      const dayTypes = new Set(own.map((r) => r.day_type));
      const seasonIds = new Set(own.map((r) => r.season_id));
      expect([...dayTypes]).toEqual(expect.arrayContaining(['WEEKDAY', 'SATURDAY', 'SUNDAY']));
      for (const seasonId of seasonIds) {
        expect(seasons.find((s) => s.id === seasonId)?.dso_id).toBe(schedule.dso_id);
        for (const dayType of dayTypes) {
          const day = own.filter((r) => r.season_id === seasonId && r.day_type === dayType);
          const where = `schedule ${schedule.id}, season ${seasonId}, ${dayType}`;
          let minute = 0;
          for (const rule of day) {
            expect(rule.start_minute, where).toBe(minute);
            expect(rule.end_minute % 30, where).toBe(0);
            expect(rule.end_minute, where).toBeGreaterThan(rule.start_minute);
            minute = rule.end_minute;
          }
          expect(minute, where).toBe(1440);
        }
      }
    }
  });

  it('gives every date of the year exactly one of WINTER and SUMMER for each DSO', async () => {
    const seasons = await rows<{ dso_id: number; label: string; start_md: string; end_md: string }>(
      `SELECT dso_id, label, to_char(date_start, 'MM-DD') AS start_md, to_char(date_end, 'MM-DD') AS end_md
       FROM dso_seasons WHERE label IN ('WINTER', 'SUMMER')`,
    );
    const contains = (s: { start_md: string; end_md: string }, md: string) =>
      s.start_md <= s.end_md ? s.start_md <= md && md <= s.end_md : md >= s.start_md || md <= s.end_md;
    const dsos = await rows<{ id: number }>('SELECT id FROM dsos');
    expect(dsos.length).toBeGreaterThanOrEqual(3);
    for (const dso of dsos) {
      const own = seasons.filter((s) => s.dso_id === dso.id);
      for (let day = 0; day < 366; day++) {
        const md = new Date(Date.UTC(2024, 0, 1 + day)).toISOString().slice(5, 10);
        expect(own.filter((s) => contains(s, md)).length, `DSO ${dso.id} ${md}`).toBe(1);
      }
      expect(own.find((s) => contains(s, '07-15'))?.label).toBe('WINTER');
    }
  });
});

describe('public holidays', () => {
  it('are, for every DSO, the statutory holidays of 2024 to 2030 as the rules compute them, and the 2024 election day', async () => {
    const expected = [2024, 2025, 2026, 2027, 2028, 2029, 2030].flatMap((year) => southAfricanPublicHolidays(year));
    expected.push({ on_date: '2024-05-29', name: 'General election day', day_type_override: null });
    expected.sort((a, b) => a.on_date.localeCompare(b.on_date));
    const dsos = await rows<{ id: number }>('SELECT id FROM dsos');
    for (const dso of dsos) {
      const stored = await rows<{ on_date: string; name: string; day_type_override: string | null }>(
        `SELECT to_char(on_date, 'YYYY-MM-DD') AS on_date, name, day_type_override
         FROM dso_public_holidays WHERE dso_id = $1 ORDER BY on_date`,
        [dso.id],
      );
      expect(stored).toEqual(expected);
    }
  });

  async function holiday(onDate: string) {
    const [row] = await rows<{ name: string; day_type_override: string | null }>(
      'SELECT name, day_type_override FROM dso_public_holidays WHERE dso_id = 1 AND on_date = $1',
      [onDate],
    );
    return row;
  }

  it('covers 2024 to 2030 for every DSO', async () => {
    const counts = await rows<{ dso_id: number; year: number; n: number }>(
      `SELECT dso_id, extract(year FROM on_date)::int AS year, count(*)::int AS n
       FROM dso_public_holidays GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    const dsos = await rows<{ id: number }>('SELECT id FROM dsos');
    for (const dso of dsos) {
      const years = counts.filter((c) => c.dso_id === dso.id);
      expect(years.map((c) => c.year)).toEqual([2024, 2025, 2026, 2027, 2028, 2029, 2030]);
      for (const year of years) expect(year.n).toBeGreaterThanOrEqual(12);
    }
  });

  it('has the expected dates and overrides', async () => {
    expect(await holiday('2025-04-18')).toEqual({ name: 'Good Friday', day_type_override: 'SUNDAY' });
    expect(await holiday('2025-04-21')).toMatchObject({ name: 'Family Day' });
    expect(await holiday('2027-12-27')).toEqual({ name: 'Day of Goodwill (observed)', day_type_override: 'SATURDAY' });
    expect(await holiday('2026-04-27')).toEqual({ name: 'Freedom Day', day_type_override: 'SATURDAY' });
    expect(await holiday('2026-08-09')).toEqual({ name: "National Women's Day", day_type_override: null });
    expect(await holiday('2026-04-28')).toBeUndefined();
  });
});

describe('catalogue', () => {
  interface TariffRow {
    id: number;
    name: string;
    tariff_type: string;
    tou_schedule_id: number | null;
    dso_id: number | null;
    schedule_dso_id: number | null;
    effective_from: string;
    effective_to: string;
  }

  async function catalogue(): Promise<TariffRow[]> {
    return rows<TariffRow>(
      `SELECT t.id, t.name, t.tariff_type, t.tou_schedule_id, t.dso_id, s.dso_id AS schedule_dso_id,
              t.effective_from::text, t.effective_to::text
       FROM tariffs t LEFT JOIN tou_schedules s ON s.id = t.tou_schedule_id
       WHERE t.account_id = $1 ORDER BY t.id`,
      [CATALOGUE_ACCOUNT],
    );
  }

  it('has at least 10 tariffs of every tariff type, with valid periods and a DSO', async () => {
    const tariffs = await catalogue();
    expect(tariffs.length).toBeGreaterThanOrEqual(10);
    expect(new Set(tariffs.map((t) => t.tariff_type))).toEqual(new Set(['FLAT', 'TIME_OF_USE', 'BLOCK', 'DYNAMIC']));
    for (const t of tariffs) {
      expect(t.effective_to >= t.effective_from, t.name).toBe(true);
      expect(t.dso_id, t.name).not.toBeNull();
    }
  });

  it('gives a schedule of the same DSO to time-of-use tariffs only', async () => {
    for (const t of await catalogue()) {
      if (t.tariff_type === 'TIME_OF_USE') {
        expect(t.tou_schedule_id, t.name).not.toBeNull();
        expect(t.schedule_dso_id, t.name).toBe(t.dso_id);
      } else {
        expect(t.tou_schedule_id, t.name).toBeNull();
      }
    }
  });

  it('prices every TOU period of both seasons in time-of-use tariffs', async () => {
    const items = await rows<{ tariff_id: number; item_type_code: string; season: string }>(
      `SELECT i.tariff_id, i.item_type_code, i.season FROM tariff_items i JOIN tariffs t ON t.id = i.tariff_id
       WHERE t.account_id = $1 AND t.tariff_type = 'TIME_OF_USE' AND i.item_type_code LIKE 'TOU_%'`,
      [CATALOGUE_ACCOUNT],
    );
    const tou = (await catalogue()).filter((t) => t.tariff_type === 'TIME_OF_USE');
    for (const t of tou) {
      const keys = items.filter((i) => i.tariff_id === t.id).map((i) => `${i.item_type_code}/${i.season}`);
      expect(keys.sort(), t.name).toEqual(
        ['PEAK', 'STANDARD', 'OFF_PEAK'].flatMap((p) => ['WINTER', 'SUMMER'].map((s) => `TOU_${p}_ENERGY/${s}`)).sort(),
      );
    }
  });

  it('gives every consumption item (kWh, kL) of a block tariff blocks with increasing limits, only the last open', async () => {
    const items = await rows<{ tariff_id: number; item_id: number; limits: (string | null)[] | null }>(
      `SELECT i.tariff_id, i.id AS item_id,
              array_agg(b.upper_limit::text ORDER BY b.block_index) FILTER (WHERE b.id IS NOT NULL) AS limits
       FROM tariff_items i JOIN tariffs t ON t.id = i.tariff_id
       JOIN tariff_item_types it ON it.code = i.item_type_code
       LEFT JOIN tariff_blocks b ON b.tariff_item_id = i.id
       WHERE t.account_id = $1 AND t.tariff_type = 'BLOCK' AND coalesce(i.unit, it.unit) IN ('kWh', 'kL')
       GROUP BY i.tariff_id, i.id`,
      [CATALOGUE_ACCOUNT],
    );
    const blockTariffs = (await catalogue()).filter((t) => t.tariff_type === 'BLOCK');
    expect(blockTariffs.length).toBeGreaterThanOrEqual(2);
    for (const t of blockTariffs) {
      const own = items.filter((i) => i.tariff_id === t.id);
      expect(own.length, t.name).toBeGreaterThan(0);
      for (const item of own) {
        const limits = item.limits ?? [];
        expect(limits.length, t.name).toBeGreaterThanOrEqual(2);
        expect(limits.at(-1), t.name).toBeNull();
        const bounded = limits.slice(0, -1).map((l) => Number(l));
        expect(
          bounded.every((l) => Number.isFinite(l)),
          t.name,
        ).toBe(true);
        bounded.forEach((l, i) => {
          if (i > 0) expect(l, t.name).toBeGreaterThan(bounded[i - 1] ?? Number.NaN);
        });
      }
    }
  });

  it('puts block tiers of contiguous indexes from 0', async () => {
    const gaps = await rows(
      `SELECT tariff_item_id FROM tariff_blocks GROUP BY tariff_item_id
       HAVING min(block_index) <> 0 OR max(block_index) <> count(*) - 1`,
    );
    expect(gaps).toEqual([]);
  });

  it('leaves room for tariffs, items and blocks created later', async () => {
    const [tariff] = await rows<{ id: number }>(
      `INSERT INTO tariffs (account_id, name, effective_from, effective_to)
       VALUES ($1, 'probe', '2025-01-01', '2025-12-31') RETURNING id`,
      [CATALOGUE_ACCOUNT],
    );
    expect(tariff?.id).toBeGreaterThan(1000);
    const [item] = await rows<{ id: number }>(
      `INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 1) RETURNING id`,
      [tariff?.id],
    );
    expect(item?.id).toBeGreaterThan(100000);
    await db.query('DELETE FROM tariffs WHERE id = $1', [tariff?.id]);
  });
});
