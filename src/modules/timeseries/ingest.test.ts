import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, invalid } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import {
  at,
  ingest,
  insertMeter,
  rollupsAndRaw,
  storedReadings,
  type TestMeter,
  TIMESERIES,
} from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
const URL = `${TIMESERIES}/readings`;
const BASE = '2026-03-01T00:00:00.000Z';

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const meter = (options: Parameters<typeof insertMeter>[2] = {}) => insertMeter(t.db, org.accountId, options);
const body = (m: TestMeter, readings: unknown[]) => ({ account_id: org.accountId, meter_sn: m.meter_sn, readings });

describe('ingest', () => {
  it('stores the readings and answers how many were inserted', async () => {
    const m = await meter();
    const res = await org.owner.client.post(
      URL,
      body(m, [
        { ts: BASE, import_kwh: 1.5, export_kwh: 0.25, kvarh: 2, power_kw: 3.5, kva: 4.5 },
        { ts: at(BASE, 30), import_kwh: 2 },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: { inserted: 2, updated: 0 } });
    expect(await storedReadings(t.db, m.id)).toEqual([
      { ts: BASE, import_kwh: 1.5, export_kwh: 0.25, kvarh: 2, power_kw: 3.5, kva: 4.5 },
      { ts: at(BASE, 30), import_kwh: 2, export_kwh: 0, kvarh: 0, power_kw: 4, kva: 4 },
    ]);
  });

  it('sums a whole day of 5-minute readings at the largest allowed values without overflow', async () => {
    const m = await meter({ interval_minutes: 5 });
    const readings = Array.from({ length: 288 }, (_, i) => ({
      ts: at(BASE, i * 5),
      import_kwh: 1_000_000,
      export_kwh: 1_000_000,
      kvarh: 1_000_000,
    }));
    await ingest(org.owner.client, org.accountId, m.meter_sn, readings);
    const sum = await org.owner.client.get(`${TIMESERIES}/energy-sum`, {
      account_id: org.accountId,
      meter_sn: m.meter_sn,
      start: BASE,
      end: at(BASE, 1440),
    });
    expect(sum.status).toBe(200);
    // 288 readings of 1,000,000: power 12,000,000 kW each; kVA sqrt(2) x 12,000,000.
    expect(sum.body.data).toMatchObject({
      import_kwh: 288_000_000,
      export_kwh: 288_000_000,
      kvarh: 288_000_000,
      readings: 288,
    });
    expect(sum.body.data.max_kva).toBeCloseTo(Math.SQRT2 * 12_000_000, 3);
    const rollups = await rollupsAndRaw(t.db, m.id);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
  });

  it('derives power_kw and kva from the energies and the meter interval when absent', async () => {
    const m = await meter({ interval_minutes: 15 });
    await ingest(org.admin.client, org.accountId, m.meter_sn, [
      // 0.75 kWh in 15 minutes = 3 kW; 1 kvarh = 4 kvar; kVA = sqrt(3^2 + 4^2) = 5.
      { ts: BASE, import_kwh: 0.75, kvarh: 1 },
      // Given power_kw is used for kva: sqrt(6^2 + 8^2) = 10.
      { ts: at(BASE, 15), import_kwh: 0.75, kvarh: 2, power_kw: 6 },
      // Given kva is kept, power_kw still derived: 0.5 * 60 / 15 = 2.
      { ts: at(BASE, 30), import_kwh: 0.5, kvarh: 2, kva: 7 },
    ]);
    expect(await storedReadings(t.db, m.id)).toEqual([
      { ts: BASE, import_kwh: 0.75, export_kwh: 0, kvarh: 1, power_kw: 3, kva: 5 },
      { ts: at(BASE, 15), import_kwh: 0.75, export_kwh: 0, kvarh: 2, power_kw: 6, kva: 10 },
      { ts: at(BASE, 30), import_kwh: 0.5, export_kwh: 0, kvarh: 2, power_kw: 2, kva: 7 },
    ]);
  });

  it('stores times across the whole allowed range, before 2000 and far after it, with their rollups', async () => {
    const m = await meter();
    const times = [
      '1900-01-01T00:00:00.000Z',
      '1999-12-31T23:30:00.000Z',
      '2300-01-01T00:00:00.000Z',
      '9998-12-31T23:30:00.000Z',
    ];
    const readings = times.map((ts, i) => ({ ts, import_kwh: i + 1 }));
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, readings)).toEqual({ inserted: 4, updated: 0 });
    expect((await storedReadings(t.db, m.id)).map((r) => [r.ts, r.import_kwh])).toEqual(
      times.map((ts, i) => [ts, i + 1]),
    );
    const rollups = await rollupsAndRaw(t.db, m.id);
    expect(rollups.hourly).toHaveLength(4);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
  });

  it('accepts an offset in ts and stores the instant', async () => {
    const m = await meter();
    await ingest(org.owner.client, org.accountId, m.meter_sn, [{ ts: '2026-03-01T02:30:00+02:00', import_kwh: 1 }]);
    expect((await storedReadings(t.db, m.id)).map((r) => r.ts)).toEqual(['2026-03-01T00:30:00.000Z']);
  });

  it('is idempotent: the same batch again replaces every reading and changes no sum', async () => {
    const m = await meter();
    const readings = Array.from({ length: 96 }, (_, i) => ({
      ts: at(BASE, 30 * i),
      import_kwh: 1 + i / 8,
      kvarh: 0.5,
    }));
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, readings)).toEqual({ inserted: 96, updated: 0 });
    const before = await storedReadings(t.db, m.id);
    const sumQuery = { account_id: org.accountId, meter_sn: m.meter_sn, start: BASE, end: at(BASE, 2880) };
    const sumBefore = await org.owner.client.get(`${TIMESERIES}/energy-sum`, sumQuery);

    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, readings)).toEqual({ inserted: 0, updated: 96 });
    expect(await storedReadings(t.db, m.id)).toEqual(before);
    expect((await org.owner.client.get(`${TIMESERIES}/energy-sum`, sumQuery)).body).toEqual(sumBefore.body);
    expect(sumBefore.body.data).toMatchObject({ import_kwh: 96 + (95 * 96) / 16, kvarh: 48, readings: 96 });
  });

  it('replaces existing readings and counts new and replaced ones apart', async () => {
    const m = await meter();
    await ingest(org.owner.client, org.accountId, m.meter_sn, [
      { ts: BASE, import_kwh: 1 },
      { ts: at(BASE, 30), import_kwh: 1 },
    ]);
    const counts = await ingest(org.owner.client, org.accountId, m.meter_sn, [
      { ts: at(BASE, 30), import_kwh: 5, export_kwh: 1 },
      { ts: at(BASE, 60), import_kwh: 2 },
    ]);
    expect(counts).toEqual({ inserted: 1, updated: 1 });
    expect((await storedReadings(t.db, m.id)).map((r) => [r.ts, r.import_kwh, r.export_kwh])).toEqual([
      [BASE, 1, 0],
      [at(BASE, 30), 5, 1],
      [at(BASE, 60), 2, 0],
    ]);
  });

  it('keeps the hourly and daily rollups equal to the raw readings after inserts and replacements', async () => {
    const m = await meter({ interval_minutes: 15 });
    const day = (offset: number, value: number) =>
      Array.from({ length: 96 * 2 }, (_, i) => ({
        ts: at(BASE, offset + 15 * i),
        import_kwh: value + (i % 7) / 4,
        export_kwh: (i % 3) / 8,
        kvarh: (i % 5) / 2,
      }));
    await ingest(org.owner.client, org.accountId, m.meter_sn, day(0, 1));
    // Overlaps the second day and part of a third, starting mid-hour.
    await ingest(org.owner.client, org.accountId, m.meter_sn, day(1440 + 45, 3));
    const rollups = await rollupsAndRaw(t.db, m.id);
    expect(rollups.hourly).toHaveLength(24 * 3 + 1);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toHaveLength(4);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
  });

  it('adds new readings to hours and days that already hold readings, keeping rollups equal to raw', async () => {
    const m = await meter({ interval_minutes: 15 });
    const values = (i: number) => ({ import_kwh: 0.1234567891 * (i + 1), kvarh: 2.5e-9 * (i + 1), power_kw: 3.5e-9 });
    const first = [0, 30, 1440].map((minutes, i) => ({ ts: at(BASE, minutes), ...values(i) }));
    const second = [15, 45, 60, 1455, 2880].map((minutes, i) => ({ ts: at(BASE, minutes), ...values(i + 3) }));
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, first)).toEqual({ inserted: 3, updated: 0 });
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, second)).toEqual({ inserted: 5, updated: 0 });
    const rollups = await rollupsAndRaw(t.db, m.id);
    expect(rollups.hourly).toHaveLength(4);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toHaveLength(3);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
  });

  it('adds a large batch (prepared off the main thread) to hours that hold readings and to new ones, keeping rollups equal to raw', async () => {
    const m = await meter({ interval_minutes: 15 });
    // Every other quarter hour of 1,100 hours, then the quarter hours between them and 300 hours more.
    const reading = (quarter: number) => ({
      ts: at(BASE, 15 * quarter),
      import_kwh: 0.1234567891 * ((quarter % 97) + 1),
      kvarh: (quarter % 5) / 2,
    });
    const first = Array.from({ length: 2200 }, (_, i) => reading(2 * i));
    const second = Array.from({ length: 2200 + 1200 }, (_, i) => reading(i < 2200 ? 2 * i + 1 : 4400 + i - 2200));
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, first)).toEqual({ inserted: 2200, updated: 0 });
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, second)).toEqual({ inserted: 3400, updated: 0 });
    const rollups = await rollupsAndRaw(t.db, m.id);
    expect(rollups.hourly).toHaveLength(1400);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
    // The same readings again replace them all.
    expect(await ingest(org.owner.client, org.accountId, m.meter_sn, second)).toEqual({ inserted: 0, updated: 3400 });
    const again = await rollupsAndRaw(t.db, m.id);
    expect(again.hourly).toEqual(again.hourlyFromRaw);
  });

  it('removes the rollups with their meter', async () => {
    const m = await meter();
    await ingest(org.owner.client, org.accountId, m.meter_sn, [{ ts: BASE, import_kwh: 1 }]);
    const count = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM readings_hourly WHERE meter_id = $1)
                + (SELECT count(*) FROM readings_daily WHERE meter_id = $1) AS n`,
          [m.id],
        )
      )[0]!.n;
    expect(await count()).toBe(2);
    await t.db.query('DELETE FROM meters WHERE id = $1', [m.id]);
    expect(await count()).toBe(0);
  });

  it('accepts 50,000 readings in one request (over the usual 1 MiB body limit)', async () => {
    const m = await meter({ interval_minutes: 5 });
    const readings = Array.from({ length: 50_000 }, (_, i) => ({ ts: at(BASE, 5 * i), import_kwh: 0.125 }));
    const res = await org.owner.client.post(URL, body(m, readings));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ inserted: 50_000, updated: 0 });
    const [rollups] = await t.db.query<{ hours: number; readings: number }>(
      'SELECT count(*)::int AS hours, sum(readings)::int AS readings FROM readings_hourly WHERE meter_id = $1',
      [m.id],
    );
    expect(rollups).toEqual({ hours: Math.ceil(50_000 / 12), readings: 50_000 });
  });

  it('answers 413 for a body over 16 MiB', async () => {
    const m = await meter();
    const res = await org.owner.client.post(URL, {
      ...body(m, [{ ts: BASE, import_kwh: 1 }]),
      pad: 'x'.repeat(16 * 1024 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(failure('Payload too large', 'Request body is too large'));
  });
});

describe('ingest validation: any invalid row rejects the whole request', () => {
  let m: TestMeter;
  beforeAll(async () => {
    m = await meter();
  });
  const good = (i: number) => ({ ts: at(BASE, 30 * i), import_kwh: 1 });

  it.each([
    [[good(0), { ts: at(BASE, 30), import_kwh: -0.5 }], 'readings.1.import_kwh: Too small: expected number to be >=0'],
    [
      [good(0), good(1), { ts: at(BASE, 60) }],
      'readings.2.import_kwh: Invalid input: expected number, received undefined',
    ],
    [[{ ...good(0), export_kwh: -1 }], 'readings.0.export_kwh: Too small: expected number to be >=0'],
    [[{ ...good(0), kvarh: -1 }], 'readings.0.kvarh: Too small: expected number to be >=0'],
    [[{ ...good(0), power_kw: -1 }], 'readings.0.power_kw: Too small: expected number to be >=0'],
    [[{ ...good(0), kva: '3' }], 'readings.0.kva: Invalid input: expected number, received string'],
    [[{ ts: '2026-03-01', import_kwh: 1 }], 'readings.0.ts: Invalid ISO datetime'],
    [[{ ts: '2026-03-01T00:00:00', import_kwh: 1 }], 'readings.0.ts: Invalid ISO datetime'],
    [[good(0), good(1), good(0)], 'readings.2.ts: Duplicate of readings.0.ts'],
    [[good(0), { ts: '2026-03-01T02:00:00+02:00', import_kwh: 1 }], 'readings.1.ts: Duplicate of readings.0.ts'],
    [[{ ...good(0), import_kwh: 1_000_001 }], 'readings.0.import_kwh: Too big: expected number to be <=1000000'],
    [[], 'readings: Too small: expected array to have >=1 items'],
  ])('%j: 400 %s, nothing stored', async (readings, error) => {
    const res = await org.owner.client.post(URL, body(m, readings));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
    expect(await storedReadings(t.db, m.id)).toEqual([]);
  });

  it('rejects more than 50,000 readings', async () => {
    const readings = Array.from({ length: 50_001 }, (_, i) => good(i));
    const res = await org.owner.client.post(URL, body(m, readings));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid('readings: Too big: expected array to have <=50000 items'));
  });

  it('rejects a ts that is not the start of one of the meter intervals, naming every such row', async () => {
    const readings = [
      good(0),
      { ts: at(BASE, 45), import_kwh: 1 },
      good(2),
      { ts: '2026-03-01T02:00:01Z', import_kwh: 1 },
    ];
    const res = await org.owner.client.post(URL, body(m, readings));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid(
        "readings.1.ts: Not the start of one of the meter's 30-minute intervals; " +
          "readings.3.ts: Not the start of one of the meter's 30-minute intervals",
      ),
    );
    expect(await storedReadings(t.db, m.id)).toEqual([]);
  });

  it('lists the first 20 of 49,999 duplicate timestamps, then how many more', async () => {
    const readings = Array.from({ length: 50_000 }, () => good(0));
    const res = await org.owner.client.post(URL, body(m, readings));
    const listed = Array.from({ length: 20 }, (_, i) => `readings.${i + 1}.ts: Duplicate of readings.0.ts`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`${listed.join('; ')}; …and 49979 more`));
    expect(await storedReadings(t.db, m.id)).toEqual([]);
  });

  it('lists the first 20 misaligned rows, then how many more', async () => {
    const readings = Array.from({ length: 25 }, (_, i) => ({ ts: at(BASE, 30 * i + 1), import_kwh: 1 }));
    const res = await org.owner.client.post(URL, body(m, readings));
    const listed = Array.from(
      { length: 20 },
      (_, i) => `readings.${i}.ts: Not the start of one of the meter's 30-minute intervals`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`${listed.join('; ')}; …and 5 more`));
  });

  it('lists exactly 20 problems without a count', async () => {
    const readings = Array.from({ length: 20 }, (_, i) => ({ ts: at(BASE, 30 * i), import_kwh: -1 }));
    const res = await org.owner.client.post(URL, body(m, readings));
    const listed = Array.from(
      { length: 20 },
      (_, i) => `readings.${i}.import_kwh: Too small: expected number to be >=0`,
    );
    expect(res.body).toEqual(invalid(listed.join('; ')));
  });

  it.each([
    [{ account_id: undefined, readings: [good(0)] }, 'account_id: Invalid input: expected string, received undefined'],
    [{ account_id: 'nope', readings: [good(0)] }, 'account_id: Invalid UUID'],
    [{ readings: [good(0)], meter_sn: '' }, 'meter_sn: Too small: expected string to have >=1 characters'],
    [{ readings: [good(0)], meter_sn: 'x'.repeat(65) }, 'meter_sn: Too big: expected string to have <=64 characters'],
    [{ readings: [good(0)], meter_sn: 'a\u0000b' }, 'meter_sn: Must not contain the NUL character'],
  ])('rejects the body %j', async (override, error) => {
    const res = await org.owner.client.post(URL, { account_id: org.accountId, meter_sn: m.meter_sn, ...override });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
  });
});

describe('ingest access', () => {
  const one = [{ ts: BASE, import_kwh: 1 }];

  it('answers 401 without a token', async () => {
    const m = await meter();
    const res = await call(t.app, 'POST', URL, { body: body(m, one) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(failure('Authentication required', 'Invalid or missing bearer token'));
  });

  it('forbids a MEMBER (403) and stores nothing', async () => {
    const m = await meter();
    const res = await org.member.client.post(URL, body(m, one));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(failure('Forbidden', 'Your role does not allow this action'));
    expect(await storedReadings(t.db, m.id)).toEqual([]);
  });

  it('forbids a caller who is not a member of account_id (403), before looking at the meter', async () => {
    const res = await org.outsider.client.post(URL, {
      account_id: org.accountId,
      meter_sn: 'NO-SUCH-METER',
      readings: one,
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(failure('Forbidden', 'You are not a member of this organization'));
  });

  it('validates the body before checking membership (400 before 403)', async () => {
    const res = await org.outsider.client.post(URL, { account_id: org.accountId, meter_sn: 'X', readings: [] });
    expect(res.status).toBe(400);
  });

  it("answers 403 for another organization's meter and leaves its readings unchanged", async () => {
    const foreign = await insertMeter(t.db, org.otherAccountId);
    await ingest(org.outsider.client, org.otherAccountId, foreign.meter_sn, [{ ts: BASE, import_kwh: 9 }]);
    const res = await org.owner.client.post(URL, {
      account_id: org.accountId,
      meter_sn: foreign.meter_sn,
      readings: [{ ts: BASE, import_kwh: 1 }],
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(failure('Forbidden', `Meter ${foreign.meter_sn} belongs to another organization`));
    expect((await storedReadings(t.db, foreign.id)).map((r) => r.import_kwh)).toEqual([9]);
  });

  it('answers 404 for an unknown meter', async () => {
    const res = await org.owner.client.post(URL, {
      account_id: org.accountId,
      meter_sn: 'NO-SUCH-METER',
      readings: one,
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(failure('Not found', 'Meter NO-SUCH-METER not found'));
  });

  it.each(['ELECTRICITY', 'SOLAR', 'GENSET', 'EV', 'HVAC'])('stores the readings of a %s meter', async (meter_type) => {
    const m = await meter({ meter_type });
    const res = await org.admin.client.post(URL, body(m, one));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ inserted: 1, updated: 0 });
    expect(await storedReadings(t.db, m.id)).toHaveLength(1);
  });

  it.each(['WATER', 'GAS', 'CARBON'])('answers 400 for the readings of a %s meter', async (meter_type) => {
    const m = await meter({ meter_type });
    const res = await org.owner.client.post(URL, body(m, one));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`meter_sn: Meter ${m.meter_sn} is not an electricity meter`));
    expect(await storedReadings(t.db, m.id)).toEqual([]);
  });

  it('answers 400 for a meter that is not an electricity meter', async () => {
    const water = await meter({ meter_type: 'WATER' });
    const res = await org.owner.client.post(URL, body(water, one));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`meter_sn: Meter ${water.meter_sn} is not an electricity meter`));
    expect(await storedReadings(t.db, water.id)).toEqual([]);
  });
});
