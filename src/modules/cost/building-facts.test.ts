import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest } from '../../../test/helpers/timeseries-factories.ts';

/**
 * A building's cost keeps what it reads of the block (its config, the meters it names, the tariff
 * history, the pending transitions) until a write changes it: each write is seen by the very next
 * request. Every test prices first (so that the facts are kept), writes through the API, then
 * prices again. The grid meters import 1 kWh every half hour through December 2025 (UTC).
 */
let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let A: number;
let B: number;

const DECEMBER = { start: '2025-12-01T00:00:00.000Z', end: '2026-01-01T00:00:00.000Z' };

async function tariff(energyPerKwh: number): Promise<number> {
  const { id } = await createTariff(org.owner.client, org.accountId, { timezone: 'UTC', tax_rate: 0 });
  await createItems(org.owner.client, id, [{ item_type_code: 'IMPORT_ENERGY', price: energyPerKwh }]);
  return id;
}

/** A block whose grid source is a new meter with December's readings, priced with tariff A. */
async function pricedBlock() {
  const block = await createBlock(org.owner.client, org.accountId);
  const meter = await createMeter(org.owner.client, org.accountId, block.id);
  const readings = Array.from({ length: 31 * 48 }, (_, i) => ({ ts: at(DECEMBER.start, i * 30), import_kwh: 1 }));
  await ingest(org.owner.client, org.accountId, meter.meter_sn, readings);
  const config = await org.owner.client.put(`/api/v1/building_blocks/${block.id}/config`, {
    account_id: org.accountId,
    grid_meter_id: meter.id,
    grid_tariff_id: A,
  });
  expect(config.status).toBe(200);
  return { blockId: block.id as number, meter: meter as { id: number; meter_sn: string } };
}

const cost = (blockId: number) =>
  org.member.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, { account_id: org.accountId, ...DECEMBER });

const grid = (res: Reply) => {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.sources[0];
};

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  [A, B] = [await tariff(2), await tariff(3)];
});
afterAll(async () => t.close());

describe('a building cost after a write to what it reads', () => {
  it('names the meter by its new serial number once the meter is renamed', async () => {
    const { blockId, meter } = await pricedBlock();
    expect(grid(await cost(blockId)).meter_sn).toBe(meter.meter_sn);
    const renamed = `${meter.meter_sn}-R`;
    const put = await org.owner.client.put(`/api/v1/meters/${meter.id}`, {
      account_id: org.accountId,
      meter_sn: renamed,
    });
    expect(put.status).toBe(200);
    const source = grid(await cost(blockId));
    expect([source.meter_sn, source.bills[0].meter_sn]).toEqual([renamed, renamed]);
  });

  it('forgets a meter deleted since: the source has no meter', async () => {
    const { blockId, meter } = await pricedBlock();
    expect(grid(await cost(blockId)).priced).toBe(true);
    const deleted = await org.owner.client.delete(`/api/v1/meters/${meter.id}`, {
      account_id: org.accountId,
      force: true,
    });
    expect(deleted.status).toBe(204);
    expect(grid(await cost(blockId))).toMatchObject({ meter_id: null, priced: false, reason: 'No meter configured' });
  });

  it('splits the period at a transition created since, and no more once it is deleted', async () => {
    const { blockId } = await pricedBlock();
    // 1,488 kWh × 2.
    expect(grid(await cost(blockId)).bills.map((b: { total: number }) => b.total)).toEqual([2976]);
    t.clock.stopAt('2025-12-10T00:00:00.000Z');
    const created = await org.owner.client.post(`/api/v1/tariffs/${A}/transitions`, {
      account_id: org.accountId,
      successor_id: B,
      effective_from: '2025-12-20T00:00:00.000Z',
    });
    expect(created.status).toBe(201);
    // 19 days × 48 kWh × 2 = 1,824; 12 days × 48 kWh × 3 = 1,728.
    const split = grid(await cost(blockId)).bills;
    expect(split.map((b: { tariff_id: number; total: number }) => [b.tariff_id, b.total])).toEqual([
      [A, 1824],
      [B, 1728],
    ]);
    const removed = await org.owner.client.delete(`/api/v1/tariffs/${A}/transitions`, { account_id: org.accountId });
    expect(removed.status).toBe(204);
    t.clock.resume();
    expect(grid(await cost(blockId)).bills.map((b: { total: number }) => b.total)).toEqual([2976]);
  });

  it('answers 404 once the config is deleted', async () => {
    const { blockId } = await pricedBlock();
    expect((await cost(blockId)).status).toBe(200);
    const config = await org.owner.client.delete(`/api/v1/building_blocks/${blockId}/config`, {
      account_id: org.accountId,
    });
    expect(config.status).toBe(204);
    const noConfig = await cost(blockId);
    expect([noConfig.status, noConfig.body.error]).toEqual([404, 'Dashboard config not found']);
  });

  it('answers 404 once the block is deleted, with its config', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const path = `/api/v1/building_blocks/${block.id}`;
    expect(
      (await org.owner.client.put(`${path}/config`, { account_id: org.accountId, grid_tariff_id: A })).status,
    ).toBe(200);
    expect(grid(await cost(block.id))).toMatchObject({ priced: false, reason: 'No meter configured' });
    expect((await org.owner.client.delete(path, { account_id: org.accountId })).status).toBe(204);
    const noBlock = await cost(block.id);
    expect([noBlock.status, noBlock.body.error]).toEqual([404, 'Building block not found']);
  });
});
