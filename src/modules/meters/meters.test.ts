import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter, meterBody } from '../../../test/helpers/building-factories.ts';
import {
  conflict,
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  invalid,
  invalidPath,
  invalidQuery,
  notFound,
  ownedByAnother,
} from '../../../test/helpers/envelopes.ts';
import { createOrganization, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { countReadings, insertReadings, insertTariff } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let blockId: number;
let foreignBlockId: number;
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  blockId = (await createBlock(org.owner.client, org.accountId)).id;
  foreignBlockId = (await createBlock(org.outsider.client, org.otherAccountId)).id;
});
afterAll(async () => t.close());

const base = '/api/v1/meters';
const FOREIGN_METER = ownedByAnother('Meter');
const NO_METER = notFound('Meter');
const DUPLICATE_SN = conflict('A meter with this meter_sn already exists');

describe('POST /meters', () => {
  it('creates a meter with defaults and answers 201 with the record', async () => {
    const res = await org.owner.client.post(base, meterBody(org.accountId, blockId, { meter_sn: 'MTR-0001' }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        account_id: org.accountId,
        building_block_id: blockId,
        meter_sn: 'MTR-0001',
        meter_type: 'ELECTRICITY',
        name: null,
        tariff_id: null,
        interval_minutes: 30,
        is_active: true,
        notified_max_demand_kva: null,
        installed_on: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
  });

  it('stores every optional field, with a tariff of the same organization (ADMIN may write)', async () => {
    const tariffId = await insertTariff(t.db, org.accountId);
    const res = await org.admin.client.post(
      base,
      meterBody(org.accountId, blockId, {
        meter_type: 'WATER',
        name: 'Main water',
        tariff_id: tariffId,
        interval_minutes: 15,
        is_active: false,
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      meter_type: 'WATER',
      name: 'Main water',
      tariff_id: tariffId,
      interval_minutes: 15,
      is_active: false,
    });
  });

  it('answers 409 for a serial number already used, in any organization', async () => {
    await createMeter(org.outsider.client, org.otherAccountId, foreignBlockId, { meter_sn: 'SHARED-SN' });
    const res = await org.owner.client.post(base, meterBody(org.accountId, blockId, { meter_sn: 'SHARED-SN' }));
    expect(res).toMatchObject({ status: 409, body: DUPLICATE_SN });
  });

  it('refuses a building block or tariff that is unknown or of another organization with 400', async () => {
    const foreignTariff = await insertTariff(t.db, org.otherAccountId);
    const cases = [
      [
        { building_block_id: foreignBlockId },
        `building_block_id: Building block ${foreignBlockId} not found in this organization`,
      ],
      [
        { building_block_id: 2_000_000_000 },
        'building_block_id: Building block 2000000000 not found in this organization',
      ],
      [{ tariff_id: foreignTariff }, `tariff_id: Tariff ${foreignTariff} not found in this organization`],
      [{ tariff_id: 2_000_000_000 }, 'tariff_id: Tariff 2000000000 not found in this organization'],
    ] as const;
    for (const [override, error] of cases) {
      const res = await org.owner.client.post(base, meterBody(org.accountId, blockId, override));
      expect(res).toMatchObject({ status: 400, body: invalid(error) });
    }
  });

  it('refuses a tariff that was deleted', async () => {
    const tariffId = await insertTariff(t.db, org.accountId);
    await t.db.query('UPDATE tariffs SET deleted_at = now() WHERE id = $1', [tariffId]);
    const res = await org.owner.client.post(base, meterBody(org.accountId, blockId, { tariff_id: tariffId }));
    expect(res).toMatchObject({
      status: 400,
      body: invalid(`tariff_id: Tariff ${tariffId} not found in this organization`),
    });
  });

  it.each([
    [{ meter_sn: '' }, 'meter_sn: Too small: expected string to have >=1 characters'],
    [{ meter_sn: 'x'.repeat(65) }, 'meter_sn: Too big: expected string to have <=64 characters'],
    [{ meter_sn: undefined }, 'meter_sn: Invalid input: expected string, received undefined'],
    [{ meter_type: 'STEAM' }, expect.stringMatching(/^meter_type: Invalid option: expected one of "ELECTRICITY"/)],
    [{ interval_minutes: 20 }, 'interval_minutes: Invalid option: expected one of 5|10|15|30|60'],
    [{ building_block_id: '1' }, 'building_block_id: Invalid input: expected number, received string'],
    [{ account_id: 'x' }, 'account_id: Invalid UUID'],
  ])('answers invalid input %j with 400', async (override, error) => {
    const res = await org.owner.client.post(base, meterBody(org.accountId, blockId, override));
    expect(res).toMatchObject({ status: 400, body: invalid(error) });
  });

  it('accepts a 64-character serial number', async () => {
    const res = await org.owner.client.post(base, meterBody(org.accountId, blockId, { meter_sn: 'S'.repeat(64) }));
    expect(res.status).toBe(201);
  });

  it('refuses a MEMBER and a non-member with 403', async () => {
    const body = meterBody(org.accountId, blockId);
    expect(await org.member.client.post(base, body)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    expect(await org.outsider.client.post(base, body)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    expect((await call(t.app, 'POST', base, { body })).status).toBe(401);
  });
});

describe('meter lists', () => {
  let accountId: string;
  let siteId: number;
  let wingId: number;

  beforeAll(async () => {
    accountId = await createOrganization(org.owner, 'Meter List Org');
    siteId = (await createBlock(org.owner.client, accountId, { name: 'Site' })).id;
    wingId = (await createBlock(org.owner.client, accountId, { name: 'Wing', parent_id: siteId })).id;
    const meters = [
      { building_block_id: siteId, meter_sn: 'LST-A', meter_type: 'ELECTRICITY', name: 'Grid incomer' },
      { building_block_id: siteId, meter_sn: 'LST-B', meter_type: 'SOLAR', name: 'Roof PV' },
      { building_block_id: wingId, meter_sn: 'LST-C', meter_type: 'ELECTRICITY', name: 'Wing load' },
      { building_block_id: wingId, meter_sn: 'LST-D', meter_type: 'WATER', name: 'Wing water' },
    ];
    for (const meter of meters) await createMeter(org.owner.client, accountId, meter.building_block_id, meter);
    await createMeter(org.outsider.client, org.otherAccountId, foreignBlockId, { meter_sn: 'LST-FOREIGN' });
  });

  const serials = (body: { data: { meter_sn: string }[] }) => body.data.map((m) => m.meter_sn);
  const list = (query: Record<string, unknown>) => org.owner.client.get(base, { account_id: accountId, ...query });

  it('lists the organization’s meters newest first with the total count', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: expect.any(Array), count: 4 });
    expect(serials(res.body)).toEqual(['LST-D', 'LST-C', 'LST-B', 'LST-A']);
    expect(res.body.data[0]).toEqual({
      id: expect.any(Number),
      account_id: accountId,
      building_block_id: wingId,
      meter_sn: 'LST-D',
      meter_type: 'WATER',
      name: 'Wing water',
      tariff_id: null,
      interval_minutes: 30,
      is_active: true,
      notified_max_demand_kva: null,
      installed_on: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('paginates, sorts, searches name and meter_sn, and filters by block and meter type', async () => {
    const page = await list({ limit: 3, page: 2, sortBy: 'meter_sn', sortOrder: 'asc' });
    expect(page.body.count).toBe(4);
    expect(serials(page.body)).toEqual(['LST-D']);
    expect(serials((await list({ sortBy: 'name', sortOrder: 'asc' })).body)).toEqual([
      'LST-A',
      'LST-B',
      'LST-C',
      'LST-D',
    ]);
    expect((await list({ query: 'WING' })).body.count).toBe(2);
    expect(serials((await list({ query: 'lst-b' })).body)).toEqual(['LST-B']);
    const ofWing = await list({ building_block_id: wingId, sortBy: 'meter_sn', sortOrder: 'asc' });
    expect(ofWing.body.count).toBe(2);
    expect(serials(ofWing.body)).toEqual(['LST-C', 'LST-D']);
    const electricity = await list({ meter_type: 'ELECTRICITY', sortBy: 'meter_sn', sortOrder: 'desc' });
    expect(serials(electricity.body)).toEqual(['LST-C', 'LST-A']);
    expect(serials((await list({ building_block_id: wingId, meter_type: 'ELECTRICITY' })).body)).toEqual(['LST-C']);
  });

  it.each([
    [{ sortBy: 'tariff_id' }, expect.stringMatching(/^sortBy: Invalid option/)],
    [{ meter_type: 'STEAM' }, expect.stringMatching(/^meter_type: Invalid option/)],
    [{ building_block_id: 'x' }, 'building_block_id: Must be a whole number in plain decimal digits'],
    [{ limit: 0 }, 'limit: Too small: expected number to be >=1'],
  ])('answers invalid parameters %j with 400', async (query, error) => {
    expect(await list(query)).toMatchObject({ status: 400, body: invalidQuery(error) });
  });

  it('lets a MEMBER list, refuses a non-member, and never shows another organization’s meters', async () => {
    expect((await org.member.client.get(base, { account_id: org.accountId })).status).toBe(200);
    expect(await org.outsider.client.get(base, { account_id: accountId })).toMatchObject({
      status: 403,
      body: FORBIDDEN_NOT_MEMBER,
    });
    expect((await list({ query: 'FOREIGN' })).body).toEqual({ success: true, message: null, data: [], count: 0 });
  });

  describe('GET /building_blocks/:id/meters', () => {
    const ofBlock = (id: number, query: Record<string, unknown> = {}, user = org.owner) =>
      user.client.get(`/api/v1/building_blocks/${id}/meters`, { account_id: accountId, ...query });

    it('lists the meters of that block only, with pagination, sorting and search', async () => {
      const res = await ofBlock(siteId);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: null, count: 2 });
      expect(serials(res.body)).toEqual(['LST-B', 'LST-A']);
      const page = await ofBlock(wingId, { limit: 1, page: 2, sortBy: 'meter_sn', sortOrder: 'asc' });
      expect(page.body.count).toBe(2);
      expect(serials(page.body)).toEqual(['LST-D']);
      expect(serials((await ofBlock(wingId, { query: 'water' })).body)).toEqual(['LST-D']);
      expect(serials((await ofBlock(siteId, { query: 'water' })).body)).toEqual([]);
      expect(serials((await ofBlock(wingId, { meter_type: 'ELECTRICITY' })).body)).toEqual(['LST-C']);
    });

    it('answers 403 for a block of another organization, 404 for an unknown block, 403 for a non-member', async () => {
      expect(await ofBlock(foreignBlockId)).toMatchObject({
        status: 403,
        body: ownedByAnother('Building block'),
      });
      expect(await ofBlock(2_000_000_000)).toMatchObject({
        status: 404,
        body: notFound('Building block'),
      });
      expect(await ofBlock(siteId, {}, org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
      expect((await ofBlock(siteId, {}, org.member)).status).toBe(403);
      expect(await ofBlock(siteId, { sortBy: 'nope' })).toMatchObject({ status: 400 });
    });
  });
});

describe('GET /meters/:id', () => {
  it('reads a meter; 403 for another organization’s, 404 for an unknown one', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId);
    const read = (id: number | string, user = org.member) =>
      user.client.get(`${base}/${id}`, { account_id: org.accountId });
    expect(await read(meter.id)).toMatchObject({ status: 200, body: { success: true, message: null, data: meter } });
    const foreign = await createMeter(org.outsider.client, org.otherAccountId, foreignBlockId);
    expect(await read(foreign.id)).toMatchObject({ status: 403, body: FOREIGN_METER });
    expect(await read(2_000_000_000)).toMatchObject({ status: 404, body: NO_METER });
    expect(await read(meter.id, org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    expect(await read('0')).toMatchObject({
      status: 400,
      body: invalidPath('id: Too small: expected number to be >=1'),
    });
  });
});

describe('PUT /meters/:id', () => {
  const update = (id: number, body: Record<string, unknown>, user = org.owner) =>
    user.client.put(`${base}/${id}`, { account_id: org.accountId, ...body });

  it('changes the given fields, moves the meter and sets or clears its tariff', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId, { name: 'Before' });
    const otherBlock = await createBlock(org.owner.client, org.accountId);
    const tariffId = await insertTariff(t.db, org.accountId);
    const changes = {
      building_block_id: otherBlock.id,
      meter_sn: 'RENAMED-SN',
      meter_type: 'GAS',
      name: 'After',
      tariff_id: tariffId,
      interval_minutes: 60,
      is_active: false,
    };
    const res = await update(meter.id, changes);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: { ...meter, ...changes, updated_at: expect.any(String) },
    });
    const cleared = await update(meter.id, { tariff_id: null, name: null });
    expect(cleared.body.data).toMatchObject({ tariff_id: null, name: null, meter_sn: 'RENAMED-SN' });
  });

  it('answers 409 for a serial number in use and 400 for references outside the organization', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId);
    const other = await createMeter(org.owner.client, org.accountId, blockId);
    expect(await update(meter.id, { meter_sn: other.meter_sn })).toMatchObject({ status: 409, body: DUPLICATE_SN });
    expect(await update(meter.id, { building_block_id: foreignBlockId })).toMatchObject({
      status: 400,
      body: invalid(`building_block_id: Building block ${foreignBlockId} not found in this organization`),
    });
    const foreignTariff = await insertTariff(t.db, org.otherAccountId);
    expect(await update(meter.id, { tariff_id: foreignTariff })).toMatchObject({
      status: 400,
      body: invalid(`tariff_id: Tariff ${foreignTariff} not found in this organization`),
    });
    expect(await update(meter.id, { interval_minutes: 45 })).toMatchObject({ status: 400 });
    const unchanged = await org.owner.client.get(`${base}/${meter.id}`, { account_id: org.accountId });
    expect(unchanged.body.data).toEqual(meter);
  });

  it('refuses a MEMBER, never changes another organization’s meter, and answers 404 for an unknown one', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId);
    expect(await update(meter.id, { name: 'x' }, org.member)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    const foreign = await createMeter(org.outsider.client, org.otherAccountId, foreignBlockId);
    expect(await update(foreign.id, { name: 'Hijacked' })).toMatchObject({ status: 403, body: FOREIGN_METER });
    const theirs = await org.outsider.client.get(`${base}/${foreign.id}`, { account_id: org.otherAccountId });
    expect(theirs.body.data).toEqual(foreign);
    expect(await update(2_000_000_000, { name: 'x' })).toMatchObject({ status: 404, body: NO_METER });
  });
});

describe('DELETE /meters/:id', () => {
  const remove = (id: number, query: Record<string, unknown> = {}, user = org.owner) =>
    user.client.delete(`${base}/${id}`, { account_id: org.accountId, ...query });

  it('deletes a meter without readings: 204, then 404', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId);
    const res = await remove(meter.id, {}, org.admin);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await org.owner.client.get(`${base}/${meter.id}`, { account_id: org.accountId })).toMatchObject({
      status: 404,
      body: NO_METER,
    });
    expect(await remove(meter.id)).toMatchObject({ status: 404, body: NO_METER });
  });

  it('answers 409 for a meter with readings unless force=true, which deletes the readings too', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId);
    await insertReadings(t.db, meter.id, '2025-01-01T00:00:00Z', 3, () => ({ import_kwh: 1, kva: 2 }));
    for (const query of [{}, { force: false }]) {
      expect(await remove(meter.id, query)).toMatchObject({
        status: 409,
        body: conflict('The meter has readings; delete it with force=true to delete them too'),
      });
    }
    expect(await countReadings(t.db, meter.id)).toBe(3);
    expect((await remove(meter.id, { force: true })).status).toBe(204);
    expect(await countReadings(t.db, meter.id)).toBe(0);
    expect((await org.owner.client.get(`${base}/${meter.id}`, { account_id: org.accountId })).status).toBe(404);
  });

  it('clears the meter from dashboard configs naming it, keeping their other fields', async () => {
    const deleted = await createMeter(org.owner.client, org.accountId, blockId);
    const kept = await createMeter(org.owner.client, org.accountId, blockId);
    const configPath = `/api/v1/building_blocks/${blockId}/config`;
    await org.owner.client.put(configPath, {
      account_id: org.accountId,
      grid_meter_id: deleted.id,
      load_meter_id: deleted.id,
      solar_meter_id: kept.id,
      submeter_ids: [kept.id, deleted.id],
    });
    expect((await remove(deleted.id)).status).toBe(204);
    const config = await org.owner.client.get(configPath, { account_id: org.accountId });
    expect(config.body.data).toMatchObject({
      grid_meter_id: null,
      load_meter_id: null,
      solar_meter_id: kept.id,
      submeter_ids: [kept.id],
    });
  });

  it('refuses a MEMBER and another organization’s meter with 403, deleting nothing', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId);
    expect(await remove(meter.id, {}, org.member)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    const foreign = await createMeter(org.outsider.client, org.otherAccountId, foreignBlockId);
    expect(await remove(foreign.id, { force: true })).toMatchObject({ status: 403, body: FOREIGN_METER });
    expect((await org.outsider.client.get(`${base}/${foreign.id}`, { account_id: org.otherAccountId })).status).toBe(
      200,
    );
    expect((await org.owner.client.get(`${base}/${meter.id}`, { account_id: org.accountId })).status).toBe(200);
    expect(await remove(meter.id, { force: 'maybe' })).toMatchObject({ status: 400 });
  });
});
