import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, invalidPath, invalidQuery, notFound } from '../../../test/helpers/envelopes.ts';
import { registerUser, type TestUser } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ITEM_TYPE_CODES } from '../tariffs/tariff-enums.ts';
import type { RuleRow as Rule } from './reference.repository.ts';

let t: TestApp;
let user: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  user = await registerUser(t.app);
});
afterAll(async () => t.close());

const ZA = 'Africa/Johannesburg';

describe('tariff item types', () => {
  it('answers every item type ordered by code, with displayName and unit, and the count', async () => {
    const res = await user.client.get('/api/v1/tariff_item_types');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(23);
    expect(res.body.data.map((r: { code: string }) => r.code)).toEqual([...ITEM_TYPE_CODES].sort());
    expect(res.body.data).toContainEqual({ code: 'IMPORT_ENERGY', displayName: 'Active energy', unit: 'kWh' });
    for (const row of res.body.data) expect(Object.keys(row)).toEqual(['code', 'displayName', 'unit']);
  });
});

describe('DSOs', () => {
  it('answers every DSO', async () => {
    const res = await user.client.get('/api/v1/dsos');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: [
        { id: 1, name: 'Eskom', tz: ZA },
        { id: 2, name: 'City Power Johannesburg', tz: ZA },
        { id: 3, name: 'City of Cape Town', tz: ZA },
      ],
      count: 3,
    });
  });
});

describe('time-of-use schedules', () => {
  it('answers the default schedule 3 with its DSO, the DSO’s seasons and their rules', async () => {
    const res = await user.client.get('/api/v1/tou_schedules/3');
    expect(res.status).toBe(200);
    const { seasons, ...schedule } = res.body.data;
    expect(schedule).toEqual({
      id: 3,
      dso_id: 1,
      name: 'Eskom Megaflex/Miniflex/Homeflex TOU',
      version: 2,
      tz: ZA,
      is_active: true,
      holiday_default: 'SATURDAY',
      dso: { id: 1, name: 'Eskom', tz: ZA },
    });
    expect(seasons.map(({ tou_rules: _rules, ...season }: { tou_rules: Rule[] }) => season)).toEqual([
      { id: 1, dso_id: 1, label: 'WINTER', date_start: '2025-06-01', date_end: '2025-08-31' },
      { id: 2, dso_id: 1, label: 'SUMMER', date_start: '2025-09-01', date_end: '2026-05-31' },
      { id: 3, dso_id: 1, label: 'ALL_YEAR', date_start: '2025-01-01', date_end: '2025-12-31' },
    ]);
    expect(seasons[2].tou_rules).toEqual([]);
    const winterWeekday = seasons[0].tou_rules.filter((r: Rule) => r.day_type === 'WEEKDAY');
    expect(winterWeekday).toEqual([
      {
        id: 301,
        schedule_id: 3,
        season_id: 1,
        day_type: 'WEEKDAY',
        period: 'OFF_PEAK',
        start_minute: 0,
        end_minute: 360,
      },
      {
        id: 302,
        schedule_id: 3,
        season_id: 1,
        day_type: 'WEEKDAY',
        period: 'PEAK',
        start_minute: 360,
        end_minute: 480,
      },
      {
        id: 303,
        schedule_id: 3,
        season_id: 1,
        day_type: 'WEEKDAY',
        period: 'STANDARD',
        start_minute: 480,
        end_minute: 1020,
      },
      {
        id: 304,
        schedule_id: 3,
        season_id: 1,
        day_type: 'WEEKDAY',
        period: 'PEAK',
        start_minute: 1020,
        end_minute: 1200,
      },
      {
        id: 305,
        schedule_id: 3,
        season_id: 1,
        day_type: 'WEEKDAY',
        period: 'STANDARD',
        start_minute: 1200,
        end_minute: 1320,
      },
      {
        id: 306,
        schedule_id: 3,
        season_id: 1,
        day_type: 'WEEKDAY',
        period: 'OFF_PEAK',
        start_minute: 1320,
        end_minute: 1440,
      },
    ]);
  });

  it('orders each season’s rules by day type and start, so each day type reads as one run from 0 to 1440', async () => {
    const res = await user.client.get('/api/v1/tou_schedules/3');
    for (const season of res.body.data.seasons.slice(0, 2)) {
      const dayTypes = [...new Set(season.tou_rules.map((r: Rule) => r.day_type))];
      expect(dayTypes).toEqual(['WEEKDAY', 'SATURDAY', 'SUNDAY']);
      for (const dayType of dayTypes) {
        const rules: Rule[] = season.tou_rules.filter((r: Rule) => r.day_type === dayType);
        expect(rules[0]!.start_minute).toBe(0);
        expect(rules.at(-1)!.end_minute).toBe(1440);
        const starts = rules.slice(1).map((r) => r.start_minute);
        expect(starts).toEqual(rules.slice(0, -1).map((r) => r.end_minute));
      }
    }
  });

  it('lists every schedule in the same shape, or those of one DSO', async () => {
    const all = await user.client.get('/api/v1/tou_schedules');
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(4);
    expect(all.body.data.map((s: { id: number }) => s.id)).toEqual([1, 2, 3, 4]);
    expect(all.body.data[2]).toEqual((await user.client.get('/api/v1/tou_schedules/3')).body.data);
    const eskom = await user.client.get('/api/v1/tou_schedules', { dso_id: 1 });
    expect(eskom.body.data.map((s: { id: number; is_active: boolean }) => [s.id, s.is_active])).toEqual([
      [1, false],
      [3, true],
    ]);
    expect(eskom.body.count).toBe(2);
    const capeTown = await user.client.get('/api/v1/tou_schedules', { dso_id: 3 });
    expect(capeTown.body.data[0].seasons.map((s: { id: number }) => s.id)).toEqual([7, 8, 9]);
    const none = await user.client.get('/api/v1/tou_schedules', { dso_id: 99 });
    expect(none.body).toEqual({ success: true, message: null, data: [], count: 0 });
  });

  it('answers 404 for an unknown schedule and 400 for bad ids', async () => {
    const unknown = await user.client.get('/api/v1/tou_schedules/99');
    expect([unknown.status, unknown.body]).toEqual([404, notFound('Time-of-use schedule')]);
    const badId = await user.client.get('/api/v1/tou_schedules/three');
    expect([badId.status, badId.body]).toEqual([
      400,
      invalidPath('id: Must be a whole number in plain decimal digits'),
    ]);
    const badDso = await user.client.get('/api/v1/tou_schedules', { dso_id: 0 });
    expect([badDso.status, badDso.body]).toEqual([400, invalidQuery('dso_id: Too small: expected number to be >=1')]);
  });
});

describe('authentication', () => {
  it.each(['/api/v1/tariff_item_types', '/api/v1/dsos', '/api/v1/tou_schedules', '/api/v1/tou_schedules/3'])(
    '%s needs a token (401)',
    async (url) => {
      const res = await call(t.app, 'GET', url);
      expect([res.status, res.body]).toEqual([401, AUTH_REQUIRED]);
    },
  );
});
