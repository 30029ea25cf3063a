import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, notFound, ownedByAnother } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { insertMeter, type TestMeter, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

const WATER = '/api/v1/timeseries/water';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let electricity: TestMeter;
let foreignWater: TestMeter;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  [electricity, foreignWater] = await Promise.all([
    insertMeter(t.db, org.accountId),
    insertMeter(t.db, org.otherAccountId, { meter_type: 'WATER', interval_minutes: 60 }),
  ]);
});
afterAll(async () => t.close());

const success = (data: unknown) => ({ success: true, message: null, data });
const hourly = () => insertMeter(t.db, org.accountId, { meter_type: 'WATER', interval_minutes: 60 });

function storeReads(meter: TestMeter, reads: unknown[], extra: Record<string, unknown> = {}) {
  return org.admin.client.post(`/api/v1/meters/${meter.id}/register-reads`, {
    account_id: org.accountId,
    reads,
    ...extra,
  });
}

function profile(meter: TestMeter, start: string, end: string, extra: Record<string, unknown> = {}) {
  return org.member.client.get(`${WATER}/volume-profile`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    start,
    end,
    ...extra,
  });
}

function volumeSum(meter: TestMeter, start: string, end: string) {
  return org.member.client.get(`${WATER}/volume-sum`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    start,
    end,
  });
}

const volumes = async (meter: TestMeter, start: string, end: string) =>
  (await profile(meter, start, end, { bucket_minutes: 60 })).body.data.map((p: { volume_kl: number }) => p.volume_kl);

describe('water interval readings', () => {
  it('stores kL per interval; volume-sum adds them up; sending them again replaces them', async () => {
    const meter = await hourly();
    const readings = [
      { ts: '2026-05-01T00:00:00Z', volume_kl: 0.25 },
      { ts: '2026-05-01T01:00:00Z', volume_kl: 1.5 },
      { ts: '2026-05-01T02:00:00Z', volume_kl: 0.125 },
    ];
    const body = { account_id: org.accountId, meter_sn: meter.meter_sn, readings };
    const first = await org.admin.client.post(`${WATER}/readings`, body);
    expect(first.status).toBe(200);
    expect(first.body).toEqual(success({ inserted: 3, updated: 0 }));
    const again = await org.admin.client.post(`${WATER}/readings`, body);
    expect(again.body).toEqual(success({ inserted: 0, updated: 3 }));
    const sum = await volumeSum(meter, '2026-05-01T00:00:00Z', '2026-05-02T00:00:00Z');
    expect(sum.status).toBe(200);
    expect(sum.body).toEqual(
      success({
        meter_sn: meter.meter_sn,
        start: '2026-05-01T00:00:00.000Z',
        end: '2026-05-02T00:00:00.000Z',
        volume_kl: 1.875,
        readings: 3,
      }),
    );
  });

  it('refuses a reading off the meter interval, naming it', async () => {
    const meter = await hourly();
    const res = await org.admin.client.post(`${WATER}/readings`, {
      account_id: org.accountId,
      meter_sn: meter.meter_sn,
      readings: [{ ts: '2026-05-01T00:30:00Z', volume_kl: 1 }],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid("readings.0.ts: Not the start of one of the meter's 60-minute intervals"));
  });
});

describe('register reads', () => {
  it('spreads the kL between two reads evenly per second into the meter intervals, and a read between or after adds to them', async () => {
    const meter = await hourly();
    // 5 kL over 2.5 hours: 2 kL an hour; the hour from 02:00 holds half an hour of it.
    const first = await storeReads(meter, [
      { read_at: '2026-01-01T00:00:00Z', register_kl: 100 },
      { read_at: '2026-01-01T02:30:00Z', register_kl: 105, estimated: true },
    ]);
    expect(first.status).toBe(200);
    expect(first.body).toEqual(success({ inserted: 2, updated: 0, intervals: 3 }));
    expect(await volumes(meter, '2026-01-01T00:00:00Z', '2026-01-01T06:00:00Z')).toEqual([2, 2, 1]);
    // 3 kL over the next 1.5 hours: the hour from 02:00 gets its second half hour (1 kL).
    const second = await storeReads(meter, [{ read_at: '2026-01-01T04:00:00Z', register_kl: 108 }]);
    expect(second.body).toEqual(success({ inserted: 1, updated: 0, intervals: 2 }));
    expect(await volumes(meter, '2026-01-01T00:00:00Z', '2026-01-01T06:00:00Z')).toEqual([2, 2, 2, 2]);
    const listed = await org.member.client.get(`/api/v1/meters/${meter.id}/register-reads`, {
      account_id: org.accountId,
    });
    expect(listed.body).toEqual(
      success([
        {
          read_at: '2026-01-01T00:00:00.000Z',
          register_kl: 100,
          estimated: false,
          rollover: false,
          consumption_kl: null,
        },
        { read_at: '2026-01-01T02:30:00.000Z', register_kl: 105, estimated: true, rollover: false, consumption_kl: 5 },
        { read_at: '2026-01-01T04:00:00.000Z', register_kl: 108, estimated: false, rollover: false, consumption_kl: 3 },
      ]),
    );
  });

  it('spreads in whole millilitres that add up to the reads exactly', async () => {
    const meter = await hourly();
    await storeReads(meter, [
      { read_at: '2026-01-01T00:00:00Z', register_kl: 7 },
      { read_at: '2026-01-01T03:00:00Z', register_kl: 8 },
    ]);
    // 1 kL over three hours: the rounded-down cumulative shares 0.333333, 0.666666, 1.
    expect(await volumes(meter, '2026-01-01T00:00:00Z', '2026-01-01T03:00:00Z')).toEqual([
      0.333333, 0.333333, 0.333334,
    ]);
    expect((await volumeSum(meter, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z')).body.data.volume_kl).toBe(1);
  });

  it('refuses a read lower than the one before it, storing none of the request', async () => {
    const meter = await hourly();
    await storeReads(meter, [{ read_at: '2026-01-01T00:00:00Z', register_kl: 108 }]);
    const res = await storeReads(meter, [
      { read_at: '2026-01-02T00:00:00Z', register_kl: 110 },
      { read_at: '2026-01-03T00:00:00Z', register_kl: 107.5 },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      invalid(
        'reads.1.register_kl: 107.5 kL on 2026-01-03T00:00:00.000Z is lower than 110 kL on 2026-01-02T00:00:00.000Z; send rollover: true when the dial passed zero',
      ),
    );
    const listed = await org.member.client.get(`/api/v1/meters/${meter.id}/register-reads`, {
      account_id: org.accountId,
    });
    expect(listed.body.data).toHaveLength(1);
    expect((await volumeSum(meter, '2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z')).body.data.readings).toBe(0);
  });

  it('takes a lower read with rollover: true as the dial passing zero', async () => {
    const meter = await hourly();
    await storeReads(meter, [{ read_at: '2026-01-01T00:00:00Z', register_kl: 99_990 }]);
    const res = await storeReads(meter, [{ read_at: '2026-01-01T05:00:00Z', register_kl: 5 }], { rollover: true });
    expect(res.status).toBe(200);
    // Up to 100,000 kL (10 kL), then 5 more: 15 kL over five hours.
    expect(await volumes(meter, '2026-01-01T00:00:00Z', '2026-01-01T05:00:00Z')).toEqual([3, 3, 3, 3, 3]);
  });

  it('gives sums and profiles in local months (Africa/Johannesburg)', async () => {
    const meter = await hourly();
    // 590 kL from 1 February to 1 April, local midnight: 59 days, 10 kL a day.
    await storeReads(meter, [
      { read_at: '2026-02-01T00:00:00+02:00', register_kl: 1000 },
      { read_at: '2026-04-01T00:00:00+02:00', register_kl: 1590 },
    ]);
    const res = await profile(meter, '2026-02-01T00:00:00+02:00', '2026-04-01T00:00:00+02:00', {
      group_by: 'month',
      tz: 'Africa/Johannesburg',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      success([
        { ts: '2026-01-31T22:00:00.000Z', label: '2026-02', volume_kl: 280 },
        { ts: '2026-02-28T22:00:00.000Z', label: '2026-03', volume_kl: 310 },
      ]),
    );
    const february = await volumeSum(meter, '2026-02-01T00:00:00+02:00', '2026-03-01T00:00:00+02:00');
    expect(february.body.data).toMatchObject({ volume_kl: 280, readings: 28 * 24 });
  });
});

describe('each route refuses the other utility', () => {
  it('water routes refuse an electricity meter, electricity routes a water meter', async () => {
    const water = await hourly();
    const range = { account_id: org.accountId, start: '2026-01-01T00:00:00Z', end: '2026-01-02T00:00:00Z' };
    const notWater = invalid(`meter_sn: Meter ${electricity.meter_sn} is not a water meter`);
    const notElectricity = invalid(`meter_sn: Meter ${water.meter_sn} is not an electricity meter`);
    const refusals = await Promise.all([
      org.admin.client.post(`${WATER}/readings`, {
        account_id: org.accountId,
        meter_sn: electricity.meter_sn,
        readings: [{ ts: range.start, volume_kl: 1 }],
      }),
      org.member.client.get(`${WATER}/volume-sum`, { ...range, meter_sn: electricity.meter_sn }),
      org.member.client.get(`${WATER}/volume-profile`, { ...range, meter_sn: electricity.meter_sn }),
      org.admin.client.post(`${TIMESERIES}/readings`, {
        account_id: org.accountId,
        meter_sn: water.meter_sn,
        readings: [{ ts: range.start, import_kwh: 1 }],
      }),
      org.member.client.get(`${TIMESERIES}/energy-sum`, { ...range, meter_sn: water.meter_sn }),
      org.member.client.get(`${TIMESERIES}/energy-profile`, { ...range, meter_sn: water.meter_sn }),
      storeReads(electricity, [{ read_at: range.start, register_kl: 1 }]),
    ]);
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 400, 400, 400, 400]);
    expect(refusals.map((r) => r.body)).toEqual([
      notWater,
      notWater,
      notWater,
      notElectricity,
      notElectricity,
      notElectricity,
      invalid(`Meter ${electricity.meter_sn} is not a water meter`),
    ]);
  });

  it('refuses another organization meter (403), an unknown one (404), and a member writing (403)', async () => {
    const foreign = await storeReads(foreignWater, [{ read_at: '2026-01-01T00:00:00Z', register_kl: 1 }]);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(ownedByAnother('Meter'));
    const unknown = await org.admin.client.post('/api/v1/meters/999999/register-reads', {
      account_id: org.accountId,
      reads: [{ read_at: '2026-01-01T00:00:00Z', register_kl: 1 }],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFound('Meter'));
    const sum = await volumeSum(foreignWater, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z');
    expect(sum.status).toBe(403);
    expect(sum.body).toEqual(ownedByAnother(`Meter ${foreignWater.meter_sn}`));
    const member = await org.member.client.post(`/api/v1/meters/${foreignWater.id}/register-reads`, {
      account_id: org.accountId,
      reads: [{ read_at: '2026-01-01T00:00:00Z', register_kl: 1 }],
    });
    expect(member.status).toBe(403);
  });
});
