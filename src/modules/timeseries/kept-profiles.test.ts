import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import type { Client } from '../../../test/helpers/http.ts';
import { secondProcess } from '../../../test/helpers/second-process.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';
import { cacheKeys } from '../../db/read-cache.ts';
import { importIntoDatabase } from './import/import-into-database.ts';

let t: TestApp;
let org: OrganizationWithRoles;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  dir = await mkdtemp(join(tmpdir(), 'kept-profiles-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const MONTH = { start: '2025-06-01T00:00:00Z', end: '2025-07-01T00:00:00Z' };
type Meter = { id: number; meter_sn: string };

async function newMeter(): Promise<Meter> {
  const blockId = (await createBlock(org.owner.client, org.accountId)).id;
  return createMeter(org.owner.client, org.accountId, blockId);
}

async function meterProfile(
  meter: Meter,
  path: 'energy-profile' | 'power-profile',
  query: Record<string, string> = {},
  client: Client = org.member.client,
) {
  const res = await client.get(`${TIMESERIES}/${path}`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    ...MONTH,
    ...query,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The imported kWh of each bucket of the meter's month in 30-minute buckets. */
const imported = async (meter: Meter, client?: Client) =>
  (await meterProfile(meter, 'energy-profile', {}, client)).map((b: { import_kwh: number }) => b.import_kwh);

/**
 * A write of the meter's readings behind the service: the read cache is not told (what it keeps
 * stays), but the meter's reads go to the primary until a replica has replayed the write, as they
 * would after a write the service made, so that a first read sees it.
 */
async function writeBehind(meterId: number, sql: string, params: unknown[]) {
  await t.db.query(sql, params);
  t.db.changed([cacheKeys.meterReadings(meterId)]);
}

/** What read() answers once it satisfies done (a NOTIFY from elsewhere takes a moment), or its last answer after 5 s. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}

/** The meter's energy-sum over MONTH (or range): imported kWh and readings. */
async function monthSum(meter: Meter, range = MONTH) {
  const res = await org.member.client.get(`${TIMESERIES}/energy-sum`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    ...range,
  });
  expect(res.status).toBe(200);
  return [res.body.data.import_kwh, res.body.data.readings];
}

describe('profiles kept until their meter readings change', () => {
  it("shows a replaced reading and an added one in a meter's energy profile and energy-sum at once", async () => {
    const meter = await newMeter();
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [
      { ts: at(MONTH.start, 0), import_kwh: 1 },
      { ts: at(MONTH.start, 30), import_kwh: 2 },
    ]);
    expect(await imported(meter)).toEqual([1, 2]);
    expect(await imported(meter)).toEqual([1, 2]);
    expect(await monthSum(meter)).toEqual([3, 2]);
    expect(await monthSum(meter)).toEqual([3, 2]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 30), import_kwh: 5 }]);
    expect(await imported(meter)).toEqual([1, 5]);
    expect(await monthSum(meter)).toEqual([6, 2]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 90), import_kwh: 3 }]);
    expect(await imported(meter)).toEqual([1, 5, 3]);
    expect(await monthSum(meter)).toEqual([9, 3]);
    const byDay = { group_by: 'day', fill: 'zero' };
    expect((await meterProfile(meter, 'energy-profile', byDay))[0].import_kwh).toBe(9);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 60), import_kwh: 4 }]);
    expect((await meterProfile(meter, 'energy-profile', byDay))[0].import_kwh).toBe(13);
  });

  it("shows a replaced reading in a meter's power profile at once", async () => {
    const meter = await newMeter();
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 1, power_kw: 2 }]);
    const maxKw = async () => (await meterProfile(meter, 'power-profile'))[0].max_kw;
    expect(await maxKw()).toBe(2);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 1, power_kw: 7 }]);
    expect(await maxKw()).toBe(7);
  });

  it('keeps a profile: a write that does not go through the service is not seen until the meter is written to', async () => {
    const meter = await newMeter();
    // Written without telling: no notice is on its way, the profile is kept at once.
    await writeBehind(
      meter.id,
      'INSERT INTO readings (meter_id, ts, import_kwh, power_kw, kva) VALUES ($1, $2, 1, 2, 2)',
      [meter.id, MONTH.start],
    );
    expect(await imported(meter)).toEqual([1]);
    await writeBehind(meter.id, 'UPDATE readings SET import_kwh = 8 WHERE meter_id = $1', [meter.id]);
    expect(await imported(meter)).toEqual([1]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 30), import_kwh: 2 }]);
    expect(await imported(meter)).toEqual([8, 2]);
  });

  it('checks access on every request, a kept profile too', async () => {
    const meter = await newMeter();
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 1 }]);
    expect(await imported(meter)).toEqual([1]);
    const res = await org.outsider.client.get(`${TIMESERIES}/energy-profile`, {
      account_id: org.accountId,
      meter_sn: meter.meter_sn,
      ...MONTH,
    });
    expect(res.status).toBe(403);
  });

  it("shows a changed reading of any source in a building's energy profile at once", async () => {
    const blockId = (await createBlock(org.owner.client, org.accountId)).id;
    const grid = await createMeter(org.owner.client, org.accountId, blockId);
    const solar = await createMeter(org.owner.client, org.accountId, blockId, { meter_type: 'SOLAR' });
    const config = await org.owner.client.put(`/api/v1/building_blocks/${blockId}/config`, {
      account_id: org.accountId,
      grid_meter_id: grid.id,
      solar_meter_id: solar.id,
    });
    expect(config.status).toBe(200);
    await ingest(org.owner.client, org.accountId, grid.meter_sn, [{ ts: MONTH.start, import_kwh: 1 }]);
    await ingest(org.owner.client, org.accountId, solar.meter_sn, [{ ts: MONTH.start, import_kwh: 0, export_kwh: 2 }]);
    const profile = async () => {
      const res = await org.member.client.get(`/api/v1/building_blocks/${blockId}/energy-profile`, {
        account_id: org.accountId,
        ...MONTH,
        group_by: 'day',
      });
      expect(res.status).toBe(200);
      return res.body.data.map((b: { sources: Record<string, { import_kwh: number; export_kwh: number }> }) => [
        b.sources.grid!.import_kwh,
        b.sources.solar!.export_kwh,
      ]);
    };
    expect(await profile()).toEqual([[1, 2]]);
    await ingest(org.owner.client, org.accountId, solar.meter_sn, [{ ts: MONTH.start, import_kwh: 0, export_kwh: 3 }]);
    expect(await profile()).toEqual([[1, 3]]);
    await ingest(org.owner.client, org.accountId, grid.meter_sn, [{ ts: at(MONTH.start, 30), import_kwh: 4 }]);
    expect(await profile()).toEqual([[5, 3]]);
  });

  it("shows what the import command stored in a meter's profile once its notice arrives", async () => {
    const meter = await newMeter();
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 1 }]);
    expect(await imported(meter)).toEqual([1]);
    const file = join(dir, 'readings.csv');
    await writeFile(
      file,
      `meter_sn,ts,import_kwh\n${meter.meter_sn},${MONTH.start},6\n${meter.meter_sn},${at(MONTH.start, 30)},7\n`,
    );
    await importIntoDatabase(t.db, { accountId: org.accountId, file });
    expect(
      await eventually(
        () => imported(meter),
        (kwh) => kwh.length === 2,
      ),
    ).toEqual([6, 7]);
  });
});

/** The imported kWh of each 30-minute bucket of the meter's month, the buckets counted from `minutes` past its start. */
const importedFrom = async (meter: Meter, minutes: number, client?: Client) =>
  (await meterProfile(meter, 'energy-profile', { start: at(MONTH.start, minutes) }, client)).map(
    (b: { import_kwh: number }) => b.import_kwh,
  );

describe("energy profiles added up from a meter's months of readings kept in memory", () => {
  it('keeps the month: a write behind the service is not seen in a period never asked for, until the meter is written to', async () => {
    const meter = await newMeter();
    await writeBehind(
      meter.id,
      'INSERT INTO readings (meter_id, ts, import_kwh, power_kw, kva) VALUES ($1, $2, 1, 2, 2)',
      [meter.id, at(MONTH.start, 30)],
    );
    expect(await importedFrom(meter, 0)).toEqual([1]);
    await writeBehind(meter.id, 'UPDATE readings SET import_kwh = 8 WHERE meter_id = $1', [meter.id]);
    // Another period of the same month: a profile of its own, added up from the month kept.
    expect(await importedFrom(meter, 10)).toEqual([1]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 60), import_kwh: 2 }]);
    expect(await importedFrom(meter, 20)).toEqual([8, 2]);
  });

  it('shows a replaced reading in a period never asked for at once, several readings to a bucket too', async () => {
    const meter = await newMeter();
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [
      { ts: at(MONTH.start, 0), import_kwh: 1, export_kwh: 0.5 },
      { ts: at(MONTH.start, 30), import_kwh: 2 },
      { ts: at(MONTH.start, 60), import_kwh: 4 },
    ]);
    expect(await importedFrom(meter, 0)).toEqual([1, 2, 4]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 30), import_kwh: 5 }]);
    expect(await importedFrom(meter, 10)).toEqual([5, 4]);
    const hourly = await meterProfile(meter, 'energy-profile', { start: at(MONTH.start, 5), bucket_minutes: '60' });
    expect(hourly).toEqual([{ ts: at(MONTH.start, 5), import_kwh: 9, export_kwh: 0, net_kwh: 9, kvarh: 0 }]);
    expect(await meterProfile(meter, 'energy-profile', { bucket_minutes: '60', fill: 'zero' })).toEqual(
      expect.arrayContaining([
        { ts: at(MONTH.start, 0), import_kwh: 6, export_kwh: 0.5, net_kwh: 5.5, kvarh: 0 },
        { ts: at(MONTH.start, 60), import_kwh: 4, export_kwh: 0, net_kwh: 4, kvarh: 0 },
        { ts: at(MONTH.start, 120), import_kwh: 0, export_kwh: 0, net_kwh: 0, kvarh: 0 },
      ]),
    );
  });
});

describe('energy-sums kept until their meter readings change', () => {
  it('keeps an energy-sum: a write that does not go through the service is not seen until the meter is written to', async () => {
    const meter = await newMeter();
    // From half past: the readings of its first hour are read as they are, not from the hourly sums.
    const range = { start: at(MONTH.start, 30), end: MONTH.end };
    await writeBehind(
      meter.id,
      'INSERT INTO readings (meter_id, ts, import_kwh, power_kw, kva) VALUES ($1, $2, 1, 2, 2)',
      [meter.id, range.start],
    );
    expect(await monthSum(meter, range)).toEqual([1, 1]);
    await writeBehind(meter.id, 'UPDATE readings SET import_kwh = 8 WHERE meter_id = $1', [meter.id]);
    expect(await monthSum(meter, range)).toEqual([1, 1]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 60), import_kwh: 2 }]);
    expect(await monthSum(meter, range)).toEqual([10, 2]);
  });

  it("shows what the import command stored in a meter's energy-sum once its notice arrives", async () => {
    const meter = await newMeter();
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 1 }]);
    expect(await monthSum(meter)).toEqual([1, 1]);
    const file = join(dir, 'sum-readings.csv');
    await writeFile(file, `meter_sn,ts,import_kwh\n${meter.meter_sn},${at(MONTH.start, 30)},7\n`);
    await importIntoDatabase(t.db, { accountId: org.accountId, file });
    expect(
      await eventually(
        () => monthSum(meter),
        ([, readings]) => readings === 2,
      ),
    ).toEqual([8, 2]);
  });
});

describe('profiles kept in two processes on one PostgreSQL', () => {
  let other: Awaited<ReturnType<typeof secondProcess>> | undefined;
  afterAll(async () => other?.close());

  it.runIf(process.env.DATABASE_URL)('shows what another process stored once its notice arrives', async () => {
    other = await secondProcess(t.databaseUrl!, org.owner);
    const elsewhere = other.client;

    const meter = await newMeter();
    await ingest(elsewhere, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 1 }]);
    expect(
      await eventually(
        () => imported(meter),
        (kwh) => kwh.length === 1,
      ),
    ).toEqual([1]);
    // Kept in both processes.
    expect(await imported(meter, elsewhere)).toEqual([1]);
    await ingest(elsewhere, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 2 }]);
    expect(await imported(meter, elsewhere)).toEqual([2]);
    expect(
      await eventually(
        () => imported(meter),
        (kwh) => kwh[0] === 2,
      ),
    ).toEqual([2]);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: MONTH.start, import_kwh: 3 }]);
    expect(await imported(meter)).toEqual([3]);
    expect(
      await eventually(
        () => imported(meter, elsewhere),
        (kwh) => kwh[0] === 3,
      ),
    ).toEqual([3]);
  });

  it.runIf(process.env.DATABASE_URL)(
    'shows a reading stored by another process in a period never asked for, once its notice arrives',
    async () => {
      other ??= await secondProcess(t.databaseUrl!, org.owner);
      const elsewhere = other.client;
      const meter = await newMeter();
      await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 30), import_kwh: 1 }]);
      // The month is kept in the other process, then changed here.
      expect(
        await eventually(
          () => importedFrom(meter, 0, elsewhere),
          (kwh) => kwh[0] === 1,
        ),
      ).toEqual([1]);
      await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: at(MONTH.start, 30), import_kwh: 4 }]);
      let minutes = 0;
      expect(
        await eventually(
          () => importedFrom(meter, ++minutes, elsewhere),
          (kwh) => kwh[0] === 4,
        ),
      ).toEqual([4]);
    },
  );
});
