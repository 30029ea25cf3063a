import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CalendarUnit, localLabels, totalsByLabel } from '../../../test/helpers/calendar-oracle.ts';
import { invalidQuery } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import {
  at,
  ingest,
  insertMeter,
  type ReadingBody,
  type TestMeter,
  TIMESERIES,
} from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

/** Readings every `minutes` from `from` (inclusive) to `to` (exclusive), each of value(i) kWh. */
function readings(from: string, to: string, minutes: number, value: (i: number) => number = () => 1): ReadingBody[] {
  const count = (Date.parse(to) - Date.parse(from)) / (minutes * 60_000);
  return Array.from({ length: count }, (_, i) => ({ ts: at(from, i * minutes), import_kwh: value(i) }));
}

async function meterWith(intervalMinutes: number, rows: ReadingBody[]): Promise<TestMeter> {
  const meter = await insertMeter(t.db, org.accountId, { interval_minutes: intervalMinutes });
  if (rows.length > 0) await ingest(org.owner.client, org.accountId, meter.meter_sn, rows);
  return meter;
}

function profile(endpoint: string, meter: TestMeter, query: Record<string, unknown>) {
  return org.member.client.get(`${TIMESERIES}/${endpoint}`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    ...query,
  });
}

/** An energy bucket of imported kWh only. */
const imported = (ts: string, label: string, kwh: number) => ({
  ts,
  label,
  import_kwh: kwh,
  export_kwh: 0,
  net_kwh: kwh,
  kvarh: 0,
});

describe('group_by: calendar units of a time zone', () => {
  /** A 60-minute meter (30 with interval given) holding readings, its energy-profile, the buckets expected. */
  interface Case {
    readings: ReadingBody[];
    interval?: number;
    query: Record<string, string>;
    expected: ReturnType<typeof imported>[];
  }
  const cases: Record<string, Case> = {
    'a Europe/London day of 23 hours at the spring change': {
      readings: readings('2025-03-29T00:00:00Z', '2025-03-31T23:00:00Z', 60),
      query: {
        start: '2025-03-29T00:00:00+00:00',
        end: '2025-04-01T00:00:00+01:00',
        group_by: 'day',
        tz: 'Europe/London',
      },
      expected: [
        imported('2025-03-29T00:00:00.000Z', '2025-03-29', 24),
        imported('2025-03-30T00:00:00.000Z', '2025-03-30', 23),
        imported('2025-03-30T23:00:00.000Z', '2025-03-31', 24),
      ],
    },
    'a Europe/London day of 25 hours at the autumn change': {
      readings: readings('2025-10-24T23:00:00Z', '2025-10-28T00:00:00Z', 60),
      query: {
        start: '2025-10-25T00:00:00+01:00',
        end: '2025-10-28T00:00:00+00:00',
        group_by: 'day',
        tz: 'Europe/London',
      },
      expected: [
        imported('2025-10-24T23:00:00.000Z', '2025-10-25', 24),
        imported('2025-10-25T23:00:00.000Z', '2025-10-26', 25),
        imported('2025-10-27T00:00:00.000Z', '2025-10-27', 24),
      ],
    },
    'no bucket for the hour the clocks skip': {
      readings: readings('2025-03-29T23:00:00Z', '2025-03-30T03:00:00Z', 60),
      query: {
        start: '2025-03-30T00:00:00Z',
        end: '2025-03-30T03:00:00Z',
        group_by: 'hour',
        tz: 'Europe/London',
        fill: 'zero',
      },
      expected: [
        imported('2025-03-30T00:00:00.000Z', '2025-03-30T00', 1),
        imported('2025-03-30T01:00:00.000Z', '2025-03-30T02', 1),
        imported('2025-03-30T02:00:00.000Z', '2025-03-30T03', 1),
      ],
    },
    'one bucket of two hours for the hour the clocks repeat': {
      readings: readings('2025-10-25T22:00:00Z', '2025-10-26T03:00:00Z', 60),
      query: {
        start: '2025-10-25T23:00:00Z',
        end: '2025-10-26T03:00:00Z',
        group_by: 'hour',
        tz: 'Europe/London',
        fill: 'zero',
      },
      expected: [
        imported('2025-10-25T23:00:00.000Z', '2025-10-26T00', 1),
        imported('2025-10-26T00:00:00.000Z', '2025-10-26T01', 2),
        imported('2025-10-26T02:00:00.000Z', '2025-10-26T02', 1),
      ],
    },
    'Africa/Johannesburg months from local midnight of the first (UTC+2)': {
      // Every half hour of the local first quarter of 2025, 0.5 kWh: 24 kWh a local day.
      readings: readings('2024-12-31T22:00:00Z', '2025-03-31T22:00:00Z', 30, () => 0.5),
      interval: 30,
      query: {
        start: '2025-01-01T00:00:00+02:00',
        end: '2025-04-01T00:00:00+02:00',
        group_by: 'month',
        tz: 'Africa/Johannesburg',
      },
      expected: [
        imported('2024-12-31T22:00:00.000Z', '2025-01', 31 * 24),
        imported('2025-01-31T22:00:00.000Z', '2025-02', 28 * 24),
        imported('2025-02-28T22:00:00.000Z', '2025-03', 31 * 24),
      ],
    },
    'America/New_York ISO weeks from Monday, the week of the spring change 167 hours': {
      // Local Monday 2025-03-03 00:00 EST to Monday 2025-03-17 00:00 EDT, 1 kWh an hour.
      readings: readings('2025-03-03T05:00:00Z', '2025-03-17T04:00:00Z', 60),
      query: {
        start: '2025-03-03T00:00:00-05:00',
        end: '2025-03-17T00:00:00-04:00',
        group_by: 'week',
        tz: 'America/New_York',
      },
      expected: [
        imported('2025-03-03T05:00:00.000Z', '2025-W10', 167),
        imported('2025-03-10T04:00:00.000Z', '2025-W11', 168),
      ],
    },
    'weeks named by ISO week-year, the first from the Monday before start (UTC by default)': {
      // Tuesday 2024-12-31 lies in week 1 of 2025, which began on Monday 2024-12-30.
      readings: readings('2024-12-31T00:00:00Z', '2025-01-07T00:00:00Z', 60),
      query: { start: '2024-12-31T00:00:00Z', end: '2025-01-07T00:00:00Z', group_by: 'week' },
      expected: [
        imported('2024-12-30T00:00:00.000Z', '2025-W01', 6 * 24),
        imported('2025-01-06T00:00:00.000Z', '2025-W02', 24),
      ],
    },
  };

  it.each(Object.entries(cases))('%s', async (_name, { readings: rows, interval = 60, query, expected }) => {
    const meter = await meterWith(interval, rows);
    const res = await profile('energy-profile', meter, query);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expected);
  });

  it('gives power per local day: mean and maximum of the readings in it', async () => {
    const meter = await meterWith(
      60,
      readings('2025-03-29T22:00:00Z', '2025-03-30T02:00:00Z', 60, (i) => i + 1),
    );
    const res = await profile('power-profile', meter, {
      start: '2025-03-29T00:00:00Z',
      end: '2025-03-31T00:00:00Z',
      group_by: 'day',
      tz: 'Europe/London',
    });
    // 22:00 and 23:00 GMT on the 29th; 00:00 GMT and 02:00 BST (01:00Z) on the 30th.
    expect(res.body.data).toEqual([
      { ts: '2025-03-29T00:00:00.000Z', label: '2025-03-29', avg_kw: 1.5, max_kw: 2, avg_kva: 1.5, max_kva: 2 },
      { ts: '2025-03-30T00:00:00.000Z', label: '2025-03-30', avg_kw: 3.5, max_kw: 4, avg_kva: 3.5, max_kva: 4 },
    ]);
  });
});

describe('fill=zero', () => {
  it('returns every bucket of the range, the empty ones with zero energy', async () => {
    const meter = await meterWith(60, readings('2025-06-03T00:00:00Z', '2025-06-04T00:00:00Z', 60));
    const query = { start: '2025-06-01T00:00:00+02:00', end: '2025-06-06T00:00:00+02:00', group_by: 'day' };
    const sparse = await profile('energy-profile', meter, { ...query, tz: 'Europe/Berlin' });
    expect(sparse.body.data.map((b: { label: string }) => b.label)).toEqual(['2025-06-03', '2025-06-04']);

    const filled = await profile('energy-profile', meter, { ...query, tz: 'Europe/Berlin', fill: 'zero' });
    expect(filled.body.data).toEqual([
      imported('2025-05-31T22:00:00.000Z', '2025-06-01', 0),
      imported('2025-06-01T22:00:00.000Z', '2025-06-02', 0),
      imported('2025-06-02T22:00:00.000Z', '2025-06-03', 22),
      imported('2025-06-03T22:00:00.000Z', '2025-06-04', 2),
      imported('2025-06-04T22:00:00.000Z', '2025-06-05', 0),
    ]);
  });

  it('gives power null in empty buckets, and fills bucket_minutes profiles too (without labels)', async () => {
    const meter = await meterWith(60, [{ ts: '2025-06-01T01:00:00Z', import_kwh: 3 }]);
    const range = { start: '2025-06-01T00:00:00Z', end: '2025-06-01T03:00:00Z', fill: 'zero' };
    const power = await profile('power-profile', meter, { ...range, group_by: 'hour' });
    const empty = { avg_kw: null, max_kw: null, avg_kva: null, max_kva: null };
    expect(power.body.data).toEqual([
      { ts: '2025-06-01T00:00:00.000Z', label: '2025-06-01T00', ...empty },
      { ts: '2025-06-01T01:00:00.000Z', label: '2025-06-01T01', avg_kw: 3, max_kw: 3, avg_kva: 3, max_kva: 3 },
      { ts: '2025-06-01T02:00:00.000Z', label: '2025-06-01T02', ...empty },
    ]);
    const minutes = await profile('energy-profile', meter, { ...range, bucket_minutes: 90 });
    expect(minutes.body.data).toEqual([
      { ts: '2025-06-01T00:00:00.000Z', import_kwh: 3, export_kwh: 0, net_kwh: 3, kvarh: 0 },
      { ts: '2025-06-01T01:30:00.000Z', import_kwh: 0, export_kwh: 0, net_kwh: 0, kvarh: 0 },
    ]);
  });

  it('counts a year of days, and the first and last partial days', async () => {
    const meter = await meterWith(60, []);
    const year = await profile('energy-profile', meter, {
      start: '2024-01-01T00:00:00Z',
      end: '2025-01-01T00:00:00Z',
      group_by: 'day',
      fill: 'zero',
    });
    expect(year.body.data).toHaveLength(366);
    const partial = await profile('energy-profile', meter, {
      start: '2025-01-01T12:00:00Z',
      end: '2025-01-03T00:00:01Z',
      group_by: 'day',
      fill: 'zero',
    });
    expect(partial.body.data.map((b: { ts: string }) => b.ts)).toEqual([
      '2025-01-01T00:00:00.000Z',
      '2025-01-02T00:00:00.000Z',
      '2025-01-03T00:00:00.000Z',
    ]);
  });
});

describe('local units against the readings grouped by PostgreSQL (half-hour zones read raw where edges cut hours)', () => {
  // Every 15 minutes, values that differ in each quarter hour, so that a bucket edge off by 15
  // minutes changes the sums.
  const value = (i: number) => ((i * 37) % 40) / 8 + 0.125;

  it.each<[string, CalendarUnit, string, string]>([
    // Eleven hours cut by day edges: read raw by an index scan each.
    ['Asia/Kolkata', 'day', '2025-01-01T00:00:00+05:30', '2025-01-11T00:00:00+05:30'],
    ['Asia/Kolkata', 'hour', '2025-01-01T10:00:00+05:30', '2025-01-01T16:15:00+05:30'],
    ['Australia/Adelaide', 'day', '2025-04-04T00:00:00+10:30', '2025-04-08T00:00:00+09:30'],
    ['Australia/Adelaide', 'hour', '2025-04-06T00:00:00+10:30', '2025-04-06T05:00:00+09:30'],
    ['Australia/Adelaide', 'week', '2025-09-29T00:00:00+09:30', '2025-10-13T00:00:00+10:30'],
    ['Australia/Adelaide', 'month', '2025-09-14T00:00:00+09:30', '2025-11-02T00:00:00+10:30'],
    ['Europe/London', 'day', '2025-03-28T06:15:00+00:00', '2025-04-01T00:00:00+01:00'],
    // Whole hours around eight week edges, whole UTC days between them.
    ['Africa/Johannesburg', 'week', '2025-01-06T00:00:00+02:00', '2025-03-03T00:00:00+02:00'],
  ])('%s by %s from %s to %s equals the readings grouped by local unit', async (tz, unit, start, end) => {
    const from = new Date(Date.parse(start) - 86_400_000).toISOString();
    const to = new Date(Date.parse(end) + 86_400_000).toISOString();
    const meter = await meterWith(15, readings(from, to, 15, value));
    const res = await profile('energy-profile', meter, { start, end, group_by: unit, tz });
    expect(res.status).toBe(200);
    const expected = totalsByLabel(await localLabels(t.db, meter.id, unit, tz, start, end));
    expect(expected.size).toBeGreaterThan(1);
    expect(res.body.data.map(({ ts: _ts, ...bucket }: { ts: string }) => bucket)).toEqual(
      [...expected].map(([label, { import_kwh, export_kwh, net_kwh, kvarh }]) => ({
        label,
        import_kwh,
        export_kwh,
        net_kwh,
        kvarh,
      })),
    );
  });

  it('starts an Asia/Kolkata day at 18:30 UTC', async () => {
    const meter = await meterWith(15, readings('2025-01-01T18:15:00Z', '2025-01-01T18:45:00Z', 15));
    const res = await profile('energy-profile', meter, {
      start: '2025-01-01T00:00:00Z',
      end: '2025-01-03T00:00:00Z',
      group_by: 'day',
      tz: 'Asia/Kolkata',
    });
    expect(res.body.data).toEqual([
      imported('2024-12-31T18:30:00.000Z', '2025-01-01', 1),
      imported('2025-01-01T18:30:00.000Z', '2025-01-02', 1),
    ]);
  });
});

describe('errors', () => {
  const range = { start: '2025-06-01T00:00:00Z', end: '2025-06-02T00:00:00Z' };
  let meter: TestMeter;
  beforeAll(async () => {
    meter = await meterWith(60, []);
  });

  it.each([
    [{ group_by: 'day', bucket_minutes: 60 }, 'group_by: Give either group_by or bucket_minutes, not both'],
    [
      { group_by: 'day', tz: 'Mars/Olympus_Mons' },
      'tz: Unknown time zone; expected an IANA name such as Europe/London',
    ],
    [{ group_by: 'day', tz: '+02:00' }, 'tz: Unknown time zone; expected an IANA name such as Europe/London'],
    [{ group_by: 'year' }, 'group_by: Invalid option: expected one of "hour"|"day"|"week"|"month"'],
    [{ group_by: 'day', fill: 'yes' }, 'fill: Invalid option: expected one of "none"|"zero"'],
    [
      { group_by: 'hour', start: '2024-06-01T00:00:00Z', end: '2025-09-01T00:00:00Z' },
      'group_by: The range holds 10968 buckets; at most 10000 are allowed',
    ],
    [
      { group_by: 'day', start: '2025-06-01' },
      'start: expected an ISO 8601 date-time with offset, e.g. 2025-06-01T00:00:00+02:00',
    ],
    [
      { group_by: 'day', end: '2025-06-02 00:00' },
      'end: expected an ISO 8601 date-time with offset, e.g. 2025-06-01T00:00:00+02:00',
    ],
  ])('energy-profile and power-profile refuse %j with 400', async (override, error) => {
    for (const endpoint of ['energy-profile', 'power-profile']) {
      const res = await profile(endpoint, meter, { ...range, ...override });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(invalidQuery(error));
    }
  });

  it('accepts any spelling of a zone name that the IANA database knows', async () => {
    for (const tz of ['europe/london', 'UTC', 'Etc/GMT-2', 'Asia/Calcutta']) {
      const res = await profile('energy-profile', meter, { ...range, group_by: 'day', tz });
      expect(res.status).toBe(200);
    }
  });
});
