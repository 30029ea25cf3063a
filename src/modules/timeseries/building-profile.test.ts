import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { FORBIDDEN_NOT_MEMBER, invalidQuery, notFound, ownedByAnother } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest, type ReadingBody, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: OrganizationWithRoles;
let blockId: number;
let grid: { id: number; meter_sn: string };
let solar: { id: number; meter_sn: string };
let load: { id: number; meter_sn: string };

// Three local days (Africa/Johannesburg, UTC+2) from Friday 2025-05-30, every 30 minutes.
const START = '2025-05-29T22:00:00.000Z';
const SLOTS = 3 * 48;

/** Readings of one source, with a gap on the second day so that buckets differ between sources. */
function readings(value: (i: number) => { import_kwh: number; export_kwh: number }, gap: [number, number]) {
  return Array.from({ length: SLOTS }, (_, i) => i)
    .filter((i) => i < gap[0] || i >= gap[1])
    .map((i): ReadingBody => ({ ts: at(START, 30 * i), ...value(i) }));
}

const configPath = (id: number) => `/api/v1/building_blocks/${id}/config`;
const profilePath = (id: number) => `/api/v1/building_blocks/${id}/energy-profile`;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const client = org.owner.client;
  blockId = (await createBlock(client, org.accountId)).id;
  grid = await createMeter(client, org.accountId, blockId);
  solar = await createMeter(client, org.accountId, blockId, { meter_type: 'SOLAR' });
  load = await createMeter(client, org.accountId, blockId);
  const water = await createMeter(client, org.accountId, blockId, { meter_type: 'WATER' });
  await ingest(
    client,
    org.accountId,
    grid.meter_sn,
    readings((i) => ({ import_kwh: (i % 7) / 4, export_kwh: (i % 3) / 8 }), [60, 70]),
  );
  await ingest(
    client,
    org.accountId,
    solar.meter_sn,
    readings((i) => ({ import_kwh: 0, export_kwh: (i % 11) / 8 }), [20, 100]),
  );
  await ingest(
    client,
    org.accountId,
    load.meter_sn,
    readings((i) => ({ import_kwh: 1 + (i % 5) / 2, export_kwh: 0 }), [0, 0]),
  );
  const res = await client.put(configPath(blockId), {
    account_id: org.accountId,
    grid_meter_id: grid.id,
    solar_meter_id: solar.id,
    load_meter_id: load.id,
    // Not an electricity meter: it has no electricity readings and is left out.
    genset_meter_id: water.id,
  });
  expect(res.status).toBe(200);
});
afterAll(async () => t.close());

type Energy = { import_kwh: number; export_kwh: number; net_kwh: number };
type BuildingBucket = { ts: string; label?: string; sources: Record<string, Energy> };
type MeterBucket = Energy & { ts: string; label?: string; kvarh: number };

async function meterProfile(meter: { meter_sn: string }, query: Record<string, unknown>): Promise<MeterBucket[]> {
  const res = await org.member.client.get(`${TIMESERIES}/energy-profile`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    ...query,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

const ZERO: Energy = { import_kwh: 0, export_kwh: 0, net_kwh: 0 };

describe('building energy-profile', () => {
  it.each([
    ['local days', { group_by: 'day', tz: 'Africa/Johannesburg' }],
    ['local hours', { group_by: 'hour', tz: 'Africa/Johannesburg' }],
    ['ISO weeks in Pacific/Auckland', { group_by: 'week', tz: 'Pacific/Auckland' }],
    ['90-minute buckets', { bucket_minutes: 90 }],
    ['the default 30-minute buckets', {}],
    ['local days with every bucket', { group_by: 'day', tz: 'Africa/Johannesburg', fill: 'zero' }],
  ])('gives per bucket each metered source as its meter answers alone: %s', async (_name, grouping) => {
    const query = { start: '2025-05-30T00:00:00+02:00', end: '2025-06-02T00:00:00+02:00', ...grouping };
    const res = await org.member.client.get(profilePath(blockId), { account_id: org.accountId, ...query });
    expect(res.status).toBe(200);
    const own = {
      grid: await meterProfile(grid, query),
      solar: await meterProfile(solar, query),
      load: await meterProfile(load, query),
    };
    const all = Object.values(own).flat();
    const buckets = [...new Set(all.map((r) => r.ts))].sort();
    const expected = buckets.map((ts) => {
      const named = all.find((r) => r.ts === ts)!;
      const sources = Object.fromEntries(
        Object.entries(own).map(([source, rows]) => {
          const bucket = rows.find((r) => r.ts === ts);
          return [
            source,
            bucket ? { import_kwh: bucket.import_kwh, export_kwh: bucket.export_kwh, net_kwh: bucket.net_kwh } : ZERO,
          ];
        }),
      );
      return { ts, ...(named.label ? { label: named.label } : {}), sources };
    });
    expect(expected.length).toBeGreaterThan(1);
    expect(res.body.data).toEqual(expected);
  });

  it('adds up, over the range, to each meter energy-sum', async () => {
    const range = { start: '2025-05-30T00:00:00+02:00', end: '2025-06-02T00:00:00+02:00' };
    const res = await org.member.client.get(profilePath(blockId), {
      account_id: org.accountId,
      ...range,
      group_by: 'month',
      tz: 'Africa/Johannesburg',
    });
    const data: BuildingBucket[] = res.body.data;
    expect(data.map((b) => b.label)).toEqual(['2025-05', '2025-06']);
    for (const [source, meter] of Object.entries({ grid, solar, load })) {
      const sum = await org.member.client.get(`${TIMESERIES}/energy-sum`, {
        account_id: org.accountId,
        meter_sn: meter.meter_sn,
        ...range,
      });
      const total = (key: keyof Energy) => data.reduce((s, b) => s + b.sources[source]![key] * 8, 0) / 8;
      expect({ import_kwh: total('import_kwh'), export_kwh: total('export_kwh') }).toEqual({
        import_kwh: sum.body.data.import_kwh,
        export_kwh: sum.body.data.export_kwh,
      });
    }
  });

  it('gives a meter named by two sources to each of them', async () => {
    const block = await createBlock(org.owner.client, org.accountId, { name: 'One meter' });
    await org.owner.client.put(configPath(block.id), {
      account_id: org.accountId,
      grid_meter_id: load.id,
      load_meter_id: load.id,
    });
    const query = { start: START, end: at(START, 60), bucket_minutes: 60 };
    const res = await org.member.client.get(profilePath(block.id), { account_id: org.accountId, ...query });
    const [own] = await meterProfile(load, query);
    const energy = { import_kwh: own!.import_kwh, export_kwh: own!.export_kwh, net_kwh: own!.net_kwh };
    expect(res.body.data).toEqual([{ ts: START, sources: { grid: energy, load: energy } }]);
  });

  it('answers an empty list for a config without electricity meters, and bare buckets with fill', async () => {
    const block = await createBlock(org.owner.client, org.accountId, { name: 'Tariffs only' });
    await org.owner.client.put(configPath(block.id), { account_id: org.accountId });
    const query = { account_id: org.accountId, start: START, end: at(START, 60), bucket_minutes: 30 };
    expect((await org.member.client.get(profilePath(block.id), query)).body.data).toEqual([]);
    expect((await org.member.client.get(profilePath(block.id), { ...query, fill: 'zero' })).body.data).toEqual([
      { ts: START, sources: {} },
      { ts: at(START, 30), sources: {} },
    ]);
  });
});

describe('building energy-profile: errors', () => {
  const range = { start: '2025-05-30T00:00:00+02:00', end: '2025-05-31T00:00:00+02:00' };

  it('answers 404 for a block without a dashboard config', async () => {
    const bare = await createBlock(org.owner.client, org.accountId, { name: 'No config' });
    const res = await org.member.client.get(profilePath(bare.id), { account_id: org.accountId, ...range });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound('Dashboard config'));
  });

  it("answers 403 for another organization's block and 404 for an unknown one", async () => {
    const foreign = await createBlock(org.outsider.client, org.otherAccountId);
    const foreignRes = await org.member.client.get(profilePath(foreign.id), { account_id: org.accountId, ...range });
    expect(foreignRes.status).toBe(403);
    expect(foreignRes.body).toEqual(ownedByAnother('Building block'));
    const unknownRes = await org.member.client.get(profilePath(2_000_000_000), { account_id: org.accountId, ...range });
    expect(unknownRes.status).toBe(404);
    expect(unknownRes.body).toEqual(notFound('Building block'));
  });

  it('answers 403 to a caller who is not a member, and 401 without a token', async () => {
    const res = await org.outsider.client.get(profilePath(blockId), { account_id: org.accountId, ...range });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN_NOT_MEMBER);
    const anonymous = await call(t.app, 'GET', profilePath(blockId), {
      query: { account_id: org.accountId, ...range },
    });
    expect(anonymous.status).toBe(401);
  });

  it.each([
    [{ group_by: 'week', bucket_minutes: 60 }, 'group_by: Give either group_by or bucket_minutes, not both'],
    [{ tz: 'Nowhere/Special' }, 'tz: Unknown time zone; expected an IANA name such as Europe/London'],
    [{ start: '30/05/2025' }, 'start: expected an ISO 8601 date-time with offset, e.g. 2025-06-01T00:00:00+02:00'],
    [{ end: range.start }, 'end: Must be after start'],
    [
      { bucket_minutes: 1, end: '2025-06-07T00:00:00+02:00' },
      'bucket_minutes: The range holds 11520 buckets; at most 10000 are allowed',
    ],
  ])('refuses %j with 400', async (override, error) => {
    const res = await org.member.client.get(profilePath(blockId), { account_id: org.accountId, ...range, ...override });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalidQuery(error));
  });
});
