import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import {
  FORBIDDEN_NOT_MEMBER,
  FORBIDDEN_ROLE,
  invalid,
  notFound,
  ownedByAnother,
} from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { insertTariff } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let meters: { id: number }[];
let tariffs: number[];
let foreign: { blockId: number; meterId: number; tariffId: number };
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  const site = await createBlock(org.owner.client, org.accountId, { name: 'Meter home' });
  meters = [];
  for (let i = 0; i < 4; i++) meters.push(await createMeter(org.owner.client, org.accountId, site.id));
  tariffs = [await insertTariff(t.db, org.accountId, 'Grid'), await insertTariff(t.db, org.accountId, 'Solar')];
  const foreignBlock = await createBlock(org.outsider.client, org.otherAccountId);
  foreign = {
    blockId: foreignBlock.id,
    meterId: (await createMeter(org.outsider.client, org.otherAccountId, foreignBlock.id)).id,
    tariffId: await insertTariff(t.db, org.otherAccountId),
  };
});
afterAll(async () => t.close());

const configPath = (blockId: number) => `/api/v1/building_blocks/${blockId}/config`;
const EMPTY_CONFIG = {
  grid_meter_id: null,
  solar_meter_id: null,
  genset_meter_id: null,
  inverter_meter_id: null,
  load_meter_id: null,
  water_supply_meter_id: null,
  submeter_ids: null,
  grid_tariff_id: null,
  solar_tariff_id: null,
  genset_tariff_id: null,
  inverter_tariff_id: null,
  load_tariff_id: null,
  water_supply_tariff_id: null,
};
const NO_CONFIG = notFound('Dashboard config');
const NO_BLOCK = notFound('Building block');
const FOREIGN_BLOCK = ownedByAnother('Building block');

const newBlock = async () => (await createBlock(org.owner.client, org.accountId)).id;
const put = (blockId: number, body: Record<string, unknown>, user = org.owner) =>
  user.client.put(configPath(blockId), { account_id: org.accountId, ...body });
const get = (blockId: number, user = org.owner) => user.client.get(configPath(blockId), { account_id: org.accountId });

describe('GET /building_blocks/:id/config', () => {
  it('answers 404 when the block has no config', async () => {
    expect(await get(await newBlock())).toMatchObject({ status: 404, body: NO_CONFIG });
  });

  it('reads the config for any member', async () => {
    const blockId = await newBlock();
    const saved = await put(blockId, { grid_meter_id: meters[0]!.id });
    const res = await get(blockId, org.member);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: null, data: saved.body.data });
  });

  it('answers 403 for a block of another organization or a non-member, 404 for an unknown block', async () => {
    await org.outsider.client.put(configPath(foreign.blockId), { account_id: org.otherAccountId });
    expect(await get(foreign.blockId)).toMatchObject({ status: 403, body: FOREIGN_BLOCK });
    expect(await get(await newBlock(), org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    expect(await get(2_000_000_000)).toMatchObject({ status: 404, body: NO_BLOCK });
    expect((await call(t.app, 'GET', configPath(1), { query: { account_id: org.accountId } })).status).toBe(401);
  });
});

describe('PUT /building_blocks/:id/config', () => {
  it('creates the config from any subset of fields, the rest null', async () => {
    const blockId = await newBlock();
    const res = await put(blockId, { grid_meter_id: meters[0]!.id, grid_tariff_id: tariffs[0] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        ...EMPTY_CONFIG,
        building_block_id: blockId,
        grid_meter_id: meters[0]!.id,
        grid_tariff_id: tariffs[0],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
    const empty = await put(await newBlock(), {});
    expect(empty.body.data).toMatchObject(EMPTY_CONFIG);
  });

  it('updates only the fields given, clears fields set to null, and keeps one config per block', async () => {
    const blockId = await newBlock();
    const [m0, m1, m2, m3] = meters.map((m) => m.id);
    await put(blockId, {
      grid_meter_id: m0,
      solar_meter_id: m1,
      genset_meter_id: m2,
      inverter_meter_id: m3,
      load_meter_id: m0,
      water_supply_meter_id: m1,
      submeter_ids: [m2, m3],
      grid_tariff_id: tariffs[0],
      solar_tariff_id: tariffs[1],
      genset_tariff_id: tariffs[0],
      inverter_tariff_id: tariffs[1],
      load_tariff_id: tariffs[0],
      water_supply_tariff_id: tariffs[0],
    });
    const res = await put(blockId, { solar_meter_id: null, submeter_ids: [m0], load_tariff_id: tariffs[1] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      building_block_id: blockId,
      grid_meter_id: m0,
      solar_meter_id: null,
      genset_meter_id: m2,
      inverter_meter_id: m3,
      load_meter_id: m0,
      water_supply_meter_id: m1,
      submeter_ids: [m0],
      grid_tariff_id: tariffs[0],
      solar_tariff_id: tariffs[1],
      genset_tariff_id: tariffs[0],
      inverter_tariff_id: tariffs[1],
      load_tariff_id: tariffs[1],
      water_supply_tariff_id: tariffs[0],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await put(blockId, { submeter_ids: [] })).body.data.submeter_ids).toEqual([]);
    expect((await put(blockId, { submeter_ids: null })).body.data.submeter_ids).toBeNull();
    expect((await get(blockId)).body.data.grid_meter_id).toBe(m0);
    const rows = await t.db.query('SELECT 1 FROM energy_dashboard_configs WHERE building_block_id = $1', [blockId]);
    expect(rows).toHaveLength(1);
  });

  it('refuses meters and tariffs that are unknown or of another organization with 400, naming each', async () => {
    const blockId = await newBlock();
    const res = await put(blockId, {
      grid_meter_id: foreign.meterId,
      submeter_ids: [meters[0]!.id, 2_000_000_000],
      load_tariff_id: foreign.tariffId,
    });
    expect(res).toMatchObject({
      status: 400,
      body: invalid(
        `grid_meter_id: Meter ${foreign.meterId} not found in this organization; ` +
          'submeter_ids.1: Meter 2000000000 not found in this organization; ' +
          `load_tariff_id: Tariff ${foreign.tariffId} not found in this organization`,
      ),
    });
    expect(await get(blockId)).toMatchObject({ status: 404, body: NO_CONFIG });
  });

  it('refuses a deleted tariff', async () => {
    const tariffId = await insertTariff(t.db, org.accountId, 'Retired');
    await t.db.query('UPDATE tariffs SET deleted_at = now() WHERE id = $1', [tariffId]);
    const res = await put(await newBlock(), { solar_tariff_id: tariffId });
    expect(res).toMatchObject({
      status: 400,
      body: invalid(`solar_tariff_id: Tariff ${tariffId} not found in this organization`),
    });
  });

  it.each([
    [{ grid_meter_id: 'one' }, 'grid_meter_id: Invalid input: expected number, received string'],
    [{ submeter_ids: [1, 1] }, 'submeter_ids: Must not name a meter twice'],
    [{ submeter_ids: 'all' }, 'submeter_ids: Invalid input: expected array, received string'],
    [{ load_tariff_id: 0 }, 'load_tariff_id: Too small: expected number to be >0'],
    [{ account_id: 'x' }, 'account_id: Invalid UUID'],
  ])('answers invalid input %j with 400', async (body, error) => {
    expect(await put(1, body)).toMatchObject({ status: 400, body: invalid(error) });
  });

  it('answers 404 for a block outside account_id (spec rule 9), leaving its config unchanged', async () => {
    const before = await org.outsider.client.put(configPath(foreign.blockId), {
      account_id: org.otherAccountId,
      grid_meter_id: foreign.meterId,
    });
    expect(await put(foreign.blockId, { grid_meter_id: null })).toMatchObject({ status: 404, body: NO_BLOCK });
    expect(await put(2_000_000_000, {})).toMatchObject({ status: 404, body: NO_BLOCK });
    const after = await org.outsider.client.get(configPath(foreign.blockId), { account_id: org.otherAccountId });
    expect(after.body.data).toEqual(before.body.data);
  });

  it('refuses a MEMBER and a non-member with 403', async () => {
    const blockId = await newBlock();
    expect(await put(blockId, {}, org.member)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    expect(await put(blockId, {}, org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    expect(await get(blockId)).toMatchObject({ status: 404, body: NO_CONFIG });
    const admin = await put(blockId, { grid_meter_id: meters[1]!.id }, org.admin);
    expect(admin.status).toBe(200);
  });
});

describe('DELETE /building_blocks/:id/config', () => {
  const remove = (blockId: number, user = org.owner) =>
    user.client.delete(configPath(blockId), { account_id: org.accountId });

  it('deletes the config: 204, then reads and deletes answer 404', async () => {
    const blockId = await newBlock();
    await put(blockId, { grid_meter_id: meters[0]!.id });
    const res = await remove(blockId);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(await get(blockId)).toMatchObject({ status: 404, body: NO_CONFIG });
    expect(await remove(blockId)).toMatchObject({ status: 404, body: NO_CONFIG });
  });

  it('refuses a MEMBER and another organization’s block with 403, deleting nothing', async () => {
    const blockId = await newBlock();
    await put(blockId, {});
    expect(await remove(blockId, org.member)).toMatchObject({ status: 403, body: FORBIDDEN_ROLE });
    await org.outsider.client.put(configPath(foreign.blockId), { account_id: org.otherAccountId });
    expect(await remove(foreign.blockId)).toMatchObject({ status: 403, body: FOREIGN_BLOCK });
    expect(
      (await org.outsider.client.get(configPath(foreign.blockId), { account_id: org.otherAccountId })).status,
    ).toBe(200);
    expect((await get(blockId)).status).toBe(200);
    expect(await remove(2_000_000_000)).toMatchObject({ status: 404, body: NO_BLOCK });
  });

  it('goes with its building block when the block is deleted', async () => {
    const blockId = await newBlock();
    await put(blockId, { grid_tariff_id: tariffs[0] });
    const deleted = await org.owner.client.delete(`/api/v1/building_blocks/${blockId}`, { account_id: org.accountId });
    expect(deleted.status).toBe(204);
    const rows = await t.db.query('SELECT 1 FROM energy_dashboard_configs WHERE building_block_id = $1', [blockId]);
    expect(rows).toHaveLength(0);
  });
});
