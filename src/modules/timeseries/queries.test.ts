import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure, invalid, invalidQuery } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import {
  at,
  energyFields,
  type FullReading,
  ingest,
  insertMeter,
  naiveBuckets,
  naiveSum,
  powerFields,
  type TestMeter,
  TIMESERIES,
} from '../../../test/helpers/timeseries-factories.ts';
import type { Executor } from '../../db/types.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let meterA: TestMeter;
let meterB: TestMeter;
let idle: TestMeter;
let water: TestMeter;
let foreign: TestMeter;

// A Monday, 00:00 UTC.
const BASE = '2026-03-02T00:00:00.000Z';

/** Three days of 30-minute readings with a five-hour gap on day two; every value a multiple of 1/8. */
const readingsA: FullReading[] = Array.from({ length: 144 }, (_, i) => i)
  .filter((i) => i < 50 || i >= 60)
  .map((i) => ({
    ts: at(BASE, 30 * i),
    import_kwh: ((i * 37) % 100) / 8,
    export_kwh: (i % 5) / 4,
    kvarh: (i % 3) / 2,
    power_kw: ((i * 13) % 50) / 4,
    kva: ((i * 13) % 50) / 4 + (i % 4) / 8,
  }));

const readingsB: FullReading[] = Array.from({ length: 8 }, (_, i) => ({
  ts: at(BASE, 15 * i),
  import_kwh: i + 0.5,
  export_kwh: 0,
  kvarh: 0.25,
  power_kw: 4 * i + 2,
  kva: 4 * i + 3,
}));

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  [meterA, meterB, idle, water, foreign] = await Promise.all([
    insertMeter(t.db, org.accountId),
    insertMeter(t.db, org.accountId, { interval_minutes: 15 }),
    insertMeter(t.db, org.accountId),
    insertMeter(t.db, org.accountId, { meter_type: 'WATER' }),
    insertMeter(t.db, org.otherAccountId, { interval_minutes: 15 }),
  ]);
  await ingest(org.owner.client, org.accountId, meterA.meter_sn, readingsA);
  await ingest(org.owner.client, org.accountId, meterB.meter_sn, readingsB);
  await ingest(org.outsider.client, org.otherAccountId, foreign.meter_sn, readingsB);
});
afterAll(async () => t.close());

const query = (meter: TestMeter, start: string, end: string, extra: Record<string, unknown> = {}) => ({
  account_id: org.accountId,
  meter_sn: meter.meter_sn,
  start,
  end,
  ...extra,
});
const get = (endpoint: string, q: Record<string, unknown>) => org.member.client.get(`${TIMESERIES}/${endpoint}`, q);
const EXPECTED_DATE_TIME = 'expected an ISO 8601 date-time with offset, e.g. 2025-06-01T00:00:00+02:00';
const success = (data: unknown) => ({ success: true, message: null, data });

describe('energy-profile', () => {
  it.each([
    ['30-minute buckets (default) from an aligned start', BASE, at(BASE, 3 * 1440), undefined],
    ['60-minute buckets from a start on the half hour (raw readings)', at(BASE, 30), at(BASE, 1440 + 30), 60],
    ['45-minute buckets', at(BASE, 90), at(BASE, 2000), 45],
    ['daily buckets from midnight (daily rollups)', BASE, at(BASE, 3 * 1440), 1440],
    ['daily buckets over a partial last day', BASE, at(BASE, 2 * 1440 + 270), 1440],
    ['daily buckets from 06:00 (hourly rollups)', at(BASE, 360), at(BASE, 3 * 1440), 1440],
    ['3-hour buckets ending mid-hour (hourly rollups and raw edge)', at(BASE, 120), at(BASE, 2 * 1440 + 90), 180],
    ['7-minute buckets', at(BASE, 14), at(BASE, 600), 7],
  ])('%s: sums per bucket aligned on start', async (_name, start, end, bucket) => {
    const res = await get('energy-profile', query(meterA, start, end, { bucket_minutes: bucket }));
    expect(res.status).toBe(200);
    const expected = naiveBuckets(readingsA, start, end, bucket ?? 30).map(energyFields);
    expect(expected.length).toBeGreaterThan(0);
    expect(res.body).toEqual(success(expected));
  });

  it('puts the hand-computed sums of two readings in a bucket that starts at start', async () => {
    // Readings 1 and 2 (00:30, 01:00) in the bucket [00:30, 01:30); reading 0 is before start.
    const res = await get('energy-profile', query(meterA, at(BASE, 30), at(BASE, 90), { bucket_minutes: 60 }));
    expect(res.body.data).toEqual([
      { ts: at(BASE, 30), import_kwh: 37 / 8 + 74 / 8, export_kwh: 0.75, net_kwh: 111 / 8 - 0.75, kvarh: 1.5 },
    ]);
  });

  it('reads start <= ts < end', async () => {
    const res = await get('energy-profile', query(meterA, at(BASE, 60), at(BASE, 120)));
    expect(res.body.data.map((b: { ts: string }) => b.ts)).toEqual([at(BASE, 60), at(BASE, 90)]);
  });

  it('leaves out buckets without readings', async () => {
    const res = await get(
      'energy-profile',
      query(meterA, at(BASE, 1440), at(BASE, 1440 + 420), { bucket_minutes: 60 }),
    );
    // Readings 50 to 59 (25:00 to 29:30) are missing: only the hours from 24:00 and 30:00 remain.
    expect(res.body.data.map((b: { ts: string }) => b.ts)).toEqual([at(BASE, 1440), at(BASE, 1440 + 360)]);
  });

  it('answers an empty list for a range without readings', async () => {
    const res = await get('energy-profile', query(meterA, at(BASE, -600), BASE, { bucket_minutes: 60 }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success([]));
  });
});

describe('power-profile', () => {
  it.each([
    ['30-minute buckets', BASE, at(BASE, 3 * 1440), 30],
    ['2-hour buckets from the half hour', at(BASE, 30), at(BASE, 2 * 1440), 120],
    ['daily buckets (rollups)', BASE, at(BASE, 3 * 1440), 1440],
    ['hourly buckets ending mid-hour', at(BASE, 60), at(BASE, 1440 + 30), 60],
  ])('%s: mean and maximum of power_kw and kva', async (_name, start, end, bucket) => {
    const res = await get('power-profile', query(meterA, start, end, { bucket_minutes: bucket }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success(naiveBuckets(readingsA, start, end, bucket).map(powerFields)));
  });

  it('gives hand-computed values for one bucket of a 15-minute meter', async () => {
    const res = await get('power-profile', query(meterB, BASE, at(BASE, 60), { bucket_minutes: 60 }));
    // power_kw 2, 6, 10, 14 and kva 3, 7, 11, 15.
    expect(res.body).toEqual(success([{ ts: BASE, avg_kw: 8, max_kw: 14, avg_kva: 9, max_kva: 15 }]));
  });
});

describe('latest-power', () => {
  it('answers the last reading inside the range', async () => {
    const res = await get('latest-power', query(meterB, BASE, at(BASE, 31)));
    expect(res.body).toEqual(success({ ts: at(BASE, 30), power_kw: 10, kva: 11 }));
  });

  it('does not count a reading at end', async () => {
    const res = await get('latest-power', query(meterB, BASE, at(BASE, 30)));
    expect(res.body.data).toEqual({ ts: at(BASE, 15), power_kw: 6, kva: 7 });
  });

  it('answers data null when the range has no reading', async () => {
    const res = await get('latest-power', query(meterB, at(BASE, 120), at(BASE, 240)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success(null));
  });
});

describe('energy-sum', () => {
  it.each([
    ['the whole data', BASE, at(BASE, 3 * 1440)],
    ['whole days and a partial hour', at(BASE, 1440), at(BASE, 3 * 1440 - 20)],
    ['a range that starts and ends mid-hour over two days', at(BASE, 50), at(BASE, 2 * 1440 + 100)],
    ['a few minutes', at(BASE, 29), at(BASE, 31)],
  ])('%s: totals, maximum kVA and the count of readings', async (_name, start, end) => {
    const res = await get('energy-sum', query(meterA, start, end));
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success(naiveSum(meterA.meter_sn, readingsA, start, end)));
  });

  it('gives hand-computed totals for a 15-minute meter', async () => {
    const res = await get('energy-sum', query(meterB, '2026-03-02T02:00:00+02:00', at(BASE, 120)));
    expect(res.body).toEqual(
      success({
        meter_sn: meterB.meter_sn,
        start: BASE,
        end: at(BASE, 120),
        import_kwh: 32,
        export_kwh: 0,
        net_kwh: 32,
        kvarh: 2,
        max_kva: 31,
        readings: 8,
      }),
    );
  });

  it('answers zero sums, max_kva null and readings 0 for a range without readings', async () => {
    const res = await get('energy-sum', query(idle, BASE, at(BASE, 60)));
    expect(res.body).toEqual(
      success({
        meter_sn: idle.meter_sn,
        start: BASE,
        end: at(BASE, 60),
        import_kwh: 0,
        export_kwh: 0,
        net_kwh: 0,
        kvarh: 0,
        max_kva: null,
        readings: 0,
      }),
    );
  });
});

describe('energy-sums', () => {
  const sums = (meterSns: string[], start: string, end: string, extra: Record<string, unknown> = {}) =>
    org.member.client.post(`${TIMESERIES}/energy-sums`, {
      account_id: org.accountId,
      meter_sns: meterSns,
      start,
      end,
      ...extra,
    });

  /** Counts the sums queries the service sends while fn runs. */
  async function countSumQueries(fn: () => Promise<unknown>): Promise<number> {
    // The sums are reads of readings: through the executor db.reads gives.
    const db = t.db;
    const original = db.reads;
    let count = 0;
    db.reads = (...keys) => {
      const executor = original.apply(db, keys);
      return {
        ...executor,
        query: ((text: string, params?: readonly unknown[]) => {
          // Totals per meter alone: the sums (a profile's are per meter and bucket).
          if (text.includes('ORDER BY meter_id) AS rows')) count++;
          return executor.query(text, params);
        }) as Executor['query'],
      };
    };
    try {
      await fn();
    } finally {
      db.reads = original;
    }
    return count;
  }

  it('answers one energy-sum per meter in request order, with count', async () => {
    const start = at(BASE, 15);
    const end = at(BASE, 1440 + 75);
    const res = await sums([meterB.meter_sn, idle.meter_sn, meterA.meter_sn], start, end);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: [
        naiveSum(meterB.meter_sn, readingsB, start, end),
        naiveSum(idle.meter_sn, [], start, end),
        naiveSum(meterA.meter_sn, readingsA, start, end),
      ],
      count: 3,
    });
  });

  it('sums max_meters_per_query meters per query and gives the same answer', async () => {
    const serials = [meterA.meter_sn, idle.meter_sn, meterB.meter_sn];
    const start = BASE;
    const end = at(BASE, 3 * 1440);
    let whole: unknown;
    let chunked: unknown;
    expect(await countSumQueries(async () => (whole = (await sums(serials, start, end)).body))).toBe(1);
    expect(
      await countSumQueries(
        async () => (chunked = (await sums(serials, start, end, { max_meters_per_query: 2 })).body),
      ),
    ).toBe(2);
    expect(await countSumQueries(() => sums(serials, start, end, { max_meters_per_query: 1 }))).toBe(3);
    expect(chunked).toEqual(whole);
    expect((whole as { data: unknown[] }).data).toEqual([
      naiveSum(meterA.meter_sn, readingsA, start, end),
      naiveSum(idle.meter_sn, [], start, end),
      naiveSum(meterB.meter_sn, readingsB, start, end),
    ]);
  });

  it.each([
    [{ meter_sns: [] }, 'meter_sns: Too small: expected array to have >=1 items'],
    [{ meter_sns: ['A', 'B', 'A'] }, 'meter_sns.2: Duplicate of meter_sns.0'],
    [
      { meter_sns: Array.from({ length: 10_001 }, (_, i) => `M${i}`) },
      'meter_sns: Too big: expected array to have <=10000 items',
    ],
    [{ max_meters_per_query: 0 }, 'max_meters_per_query: Too small: expected number to be >=1'],
    [{ max_meters_per_query: 1001 }, 'max_meters_per_query: Too big: expected number to be <=1000'],
    [{ max_meters_per_query: 1.5 }, 'max_meters_per_query: Invalid input: expected int, received number'],
    [{ end: BASE }, 'end: Must be after start'],
    [{ bucket_minutes: 1441 }, 'bucket_minutes: Too big: expected number to be <=1440'],
    [{ start: 'yesterday' }, `start: ${EXPECTED_DATE_TIME}`],
  ])('rejects %j with 400', async (override, error) => {
    const res = await org.member.client.post(`${TIMESERIES}/energy-sums`, {
      account_id: org.accountId,
      meter_sns: [meterA.meter_sn],
      start: BASE,
      end: at(BASE, 60),
      ...override,
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
  });

  it('fails the whole request for a foreign serial (403), else an unknown one (404), else a non-electricity one (400)', async () => {
    const end = at(BASE, 60);
    const foreignRes = await sums([meterA.meter_sn, 'NOPE', water.meter_sn, foreign.meter_sn], BASE, end);
    expect(foreignRes.status).toBe(403);
    expect(foreignRes.body).toEqual(failure('Forbidden', `Meter ${foreign.meter_sn} belongs to another organization`));
    const unknownRes = await sums([meterA.meter_sn, water.meter_sn, 'NOPE'], BASE, end);
    expect(unknownRes.status).toBe(404);
    expect(unknownRes.body).toEqual(failure('Not found', 'Meter NOPE not found'));
    const waterRes = await sums([meterA.meter_sn, water.meter_sn], BASE, end);
    expect(waterRes.status).toBe(400);
    expect(waterRes.body).toEqual(invalid(`meter_sns.1: Meter ${water.meter_sn} is not an electricity meter`));
  });

  it('forbids a caller who is not a member (403)', async () => {
    const res = await org.outsider.client.post(`${TIMESERIES}/energy-sums`, {
      account_id: org.accountId,
      meter_sns: [meterA.meter_sn],
      start: BASE,
      end: at(BASE, 60),
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('You are not a member of this organization');
  });
});

describe.each(['energy-profile', 'power-profile', 'latest-power', 'energy-sum'])('%s: errors', (endpoint) => {
  const base = () => query(meterA, BASE, at(BASE, 60));

  it('answers 401 without a token', async () => {
    const res = await call(t.app, 'GET', `${TIMESERIES}/${endpoint}`, { query: base() });
    expect(res.status).toBe(401);
  });

  it.each([
    [{ account_id: 'nope' }, 'account_id: Invalid UUID'],
    [{ meter_sn: undefined }, 'meter_sn: Invalid input: expected string, received undefined'],
    [{ start: '2026-03-02' }, `start: ${EXPECTED_DATE_TIME}`],
    [{ end: '2026-03-02T10:00:00' }, `end: ${EXPECTED_DATE_TIME}`],
    [{ end: undefined }, 'end: Invalid input: expected string, received undefined'],
    [{ end: BASE }, 'end: Must be after start'],
    [{ end: at(BASE, -30) }, 'end: Must be after start'],
    [{ bucket_minutes: 0 }, 'bucket_minutes: Too small: expected number to be >=1'],
    [{ bucket_minutes: 1441 }, 'bucket_minutes: Too big: expected number to be <=1440'],
    [{ bucket_minutes: 'x' }, 'bucket_minutes: Must be a whole number in plain decimal digits'],
  ])('rejects %j with 400', async (override, error) => {
    const res = await get(endpoint, { ...base(), ...override });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(error));
  });

  it('validates before checking membership (400 before 403)', async () => {
    const res = await org.outsider.client.get(`${TIMESERIES}/${endpoint}`, { ...base(), end: BASE });
    expect(res.status).toBe(400);
  });

  it('forbids a caller who is not a member (403)', async () => {
    const res = await org.outsider.client.get(`${TIMESERIES}/${endpoint}`, base());
    expect(res.status).toBe(403);
    expect(res.body).toEqual(failure('Forbidden', 'You are not a member of this organization'));
  });

  it("answers 403 for another organization's meter and shows none of its data", async () => {
    const res = await get(endpoint, query(foreign, BASE, at(BASE, 60)));
    expect(res.status).toBe(403);
    expect(res.body).toEqual(failure('Forbidden', `Meter ${foreign.meter_sn} belongs to another organization`));
  });

  it('answers 404 for an unknown meter', async () => {
    const res = await get(endpoint, { ...base(), meter_sn: 'NO-SUCH-METER' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(failure('Not found', 'Meter NO-SUCH-METER not found'));
  });

  it.each(['SOLAR', 'GENSET', 'EV', 'HVAC'])('reads the readings of a %s meter', async (meter_type) => {
    const m = await insertMeter(t.db, org.accountId, { meter_type });
    await ingest(org.owner.client, org.accountId, m.meter_sn, [{ ts: BASE, import_kwh: 2, kva: 4 }]);
    const res = await get(endpoint, query(m, BASE, at(BASE, 60)));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).not.toEqual([]);
    expect(res.body.data).not.toBeNull();
  });

  it.each(['GAS', 'CARBON'])('answers 400 for a %s meter', async (meter_type) => {
    const m = await insertMeter(t.db, org.accountId, { meter_type });
    const res = await get(endpoint, query(m, BASE, at(BASE, 60)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`meter_sn: Meter ${m.meter_sn} is not an electricity meter`));
  });

  it('answers 400 for a meter that is not an electricity meter', async () => {
    const res = await get(endpoint, query(water, BASE, at(BASE, 60)));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(`meter_sn: Meter ${water.meter_sn} is not an electricity meter`));
  });
});

describe('profile size', () => {
  it.each(['energy-profile', 'power-profile'])('%s: at most 10,000 buckets', async (endpoint) => {
    const exactly = await get(endpoint, query(meterA, BASE, at(BASE, 30 * 10_000)));
    expect(exactly.status).toBe(200);
    const over = await get(endpoint, query(meterA, BASE, at(BASE, 30 * 10_000 + 1)));
    expect(over.status).toBe(400);
    expect(over.body).toEqual(invalidQuery('bucket_minutes: The range holds 10001 buckets; at most 10000 are allowed'));
    const daily = await get(endpoint, query(meterA, BASE, at(BASE, 1440 * 10_000), { bucket_minutes: 1440 }));
    expect(daily.status).toBe(200);
  });

  it('does not limit the range of energy-sum and latest-power', async () => {
    const long = query(meterA, '2000-01-01T00:00:00Z', '2040-01-01T00:00:00Z');
    expect((await get('energy-sum', long)).body.data).toEqual(
      naiveSum(meterA.meter_sn, readingsA, '2000-01-01T00:00:00Z', '2040-01-01T00:00:00Z'),
    );
    expect((await get('latest-power', long)).body.data.ts).toBe(readingsA.at(-1)!.ts);
  });
});

describe('API reference', () => {
  it('documents the six routes', async () => {
    const res = await call(t.app, 'GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    const paths = Object.keys(res.body.paths).filter((p) => p.startsWith(TIMESERIES));
    expect(paths.sort()).toEqual(
      ['energy-profile', 'energy-sum', 'energy-sums', 'latest-power', 'power-profile', 'readings'].map(
        (name) => `${TIMESERIES}/${name}`,
      ),
    );
  });
});
