import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { insertMeter, rollupsAndRaw, storedReadings, TIMESERIES } from '../../test/helpers/timeseries-factories.ts';
import { seedDemoReadings } from './demo-readings.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
const NOW = new Date('2026-11-22T10:17:00Z');

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

async function seededMeters() {
  const [grid, solar, load] = await Promise.all([1, 2, 3].map(() => insertMeter(t.db, org.accountId)));
  await t.db.transaction((tx) => seedDemoReadings(tx, { grid: grid!.id, solar: solar!.id, load: load!.id }, NOW));
  return { grid: grid!, solar: solar!, load: load! };
}

describe('seedDemoReadings', () => {
  let meters: Awaited<ReturnType<typeof seededMeters>>;
  beforeAll(async () => {
    meters = await seededMeters();
  });

  it('writes 30-minute readings per meter from local midnight 90 days before now to the last whole interval before now', async () => {
    for (const meter of Object.values(meters)) {
      const readings = await storedReadings(t.db, meter.id);
      // 24 August 00:00 to 22 November 11:30 local: 90 days and 12 hours.
      expect(readings).toHaveLength(90 * 48 + 24);
      expect(readings[0]!.ts).toBe('2026-08-23T22:00:00.000Z');
      expect(readings.at(-1)!.ts).toBe('2026-11-22T09:30:00.000Z');
    }
  });

  it('is deterministic', async () => {
    const again = await seededMeters();
    for (const key of ['grid', 'solar', 'load'] as const) {
      expect(await storedReadings(t.db, again[key].id)).toEqual(await storedReadings(t.db, meters[key].id));
    }
  });

  it('is shaped like real data: solar only by day, exported at midday on weekends, busier weekdays, reactive energy', async () => {
    const [solar, load, grid] = await Promise.all(
      [meters.solar, meters.load, meters.grid].map((m) => storedReadings(t.db, m.id)),
    );
    // SAST is UTC+2: 22:00 to 04:00 local is 20:00 to 02:00 UTC.
    const night = (ts: string) => ['20', '21', '22', '23', '00', '01'].includes(ts.slice(11, 13));
    expect(solar!.filter((r) => night(r.ts)).every((r) => r.export_kwh === 0)).toBe(true);
    expect(solar!.every((r) => r.import_kwh === 0)).toBe(true);
    expect(Math.max(...solar!.map((r) => r.export_kwh))).toBeGreaterThan(15);
    const weekday = (ts: string) => ![0, 6].includes(new Date(Date.parse(ts) + 7_200_000).getUTCDay());
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const middayLoad = (pick: boolean) =>
      mean(load!.filter((r) => weekday(r.ts) === pick && r.ts.slice(11, 13) === '10').map((r) => r.import_kwh));
    expect(middayLoad(true)).toBeGreaterThan(2 * middayLoad(false));
    expect(grid!.filter((r) => r.export_kwh > 0 && !weekday(r.ts)).length).toBeGreaterThan(100);
    expect(grid!.every((r) => r.import_kwh === 0 || r.export_kwh === 0)).toBe(true);
    expect(load!.every((r) => r.kvarh > 0 && r.kva > r.power_kw)).toBe(true);
  });

  it('balances: grid import - export = load - solar in every interval', async () => {
    const [solar, load, grid] = await Promise.all(
      [meters.solar, meters.load, meters.grid].map((m) => storedReadings(t.db, m.id)),
    );
    grid!.forEach((g, i) => {
      expect(g.import_kwh - g.export_kwh).toBeCloseTo(load![i]!.import_kwh - solar![i]!.export_kwh, 2);
    });
  });

  it('keeps the rollups, which answer a 90-day energy-sum', async () => {
    const rollups = await rollupsAndRaw(t.db, meters.grid.id);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
    const res = await org.member.client.get(`${TIMESERIES}/energy-sum`, {
      account_id: org.accountId,
      meter_sn: meters.load.meter_sn,
      start: '2026-08-01T00:00:00Z',
      end: '2026-12-01T00:00:00Z',
    });
    expect(res.body.data.readings).toBe(90 * 48 + 24);
  });
});
