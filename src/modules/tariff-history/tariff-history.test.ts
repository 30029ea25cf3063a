import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { AUTH_REQUIRED, FORBIDDEN_NOT_MEMBER, notFound, ownedByAnother } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles, type TestUser } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import { insertTariff } from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { migrate } from '../../db/migrate.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let siteId: number;
let foreign: { blockId: number; meterId: number };

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  siteId = (await createBlock(org.owner.client, org.accountId, { name: 'History site' })).id;
  const foreignBlock = await createBlock(org.outsider.client, org.otherAccountId);
  const foreignMeter = await createMeter(org.outsider.client, org.otherAccountId, foreignBlock.id);
  await org.outsider.client.put(`/api/v1/building_blocks/${foreignBlock.id}/config`, {
    account_id: org.otherAccountId,
    grid_meter_id: foreignMeter.id,
  });
  foreign = { blockId: foreignBlock.id, meterId: foreignMeter.id };
});
afterAll(async () => t.close());
afterEach(() => t.clock.resume());

const tariffs = (n: number) => Promise.all(Array.from({ length: n }, () => insertTariff(t.db, org.accountId)));

const meterHistoryPath = (meterId: number) => `/api/v1/meters/${meterId}/tariff-history`;
const configPath = (blockId: number) => `/api/v1/building_blocks/${blockId}/config`;
const configHistoryPath = (blockId: number) => `${configPath(blockId)}/tariff-history`;

const meterHistory = (meterId: number, user: TestUser = org.member, accountId = org.accountId) =>
  user.client.get(meterHistoryPath(meterId), { account_id: accountId });
const configHistory = (blockId: number, user: TestUser = org.member, accountId = org.accountId) =>
  user.client.get(configHistoryPath(blockId), { account_id: accountId });

const putMeter = (meterId: number, body: Record<string, unknown>) =>
  org.owner.client.put(`/api/v1/meters/${meterId}`, { account_id: org.accountId, ...body });
const putConfig = (blockId: number, body: Record<string, unknown>) =>
  org.owner.client.put(configPath(blockId), { account_id: org.accountId, ...body });
const createTransition = (predecessorId: number, successorId: number, effectiveFrom: string) =>
  org.owner.client.post(`/api/v1/tariffs/${predecessorId}/transitions`, {
    account_id: org.accountId,
    successor_id: successorId,
    effective_from: effectiveFrom,
  });

/** The list envelope of every history read. */
const list = (records: unknown[]) => ({ success: true, message: null, data: records, count: records.length });

type Cause = 'CREATE' | 'UPDATE' | 'TRANSITION' | 'DELETE' | 'EXISTING';
interface Change {
  tariff_id: number | null;
  effective_from: string | null;
  recorded_at: string;
  cause: Cause;
  transition_id?: number;
}
const meterRecord = (meterId: number, change: Change) => ({
  id: expect.any(Number),
  meter_id: meterId,
  transition_id: null,
  ...change,
});
const sourceRecord = (blockId: number, source: string, change: Change) => ({
  id: expect.any(Number),
  building_block_id: blockId,
  source,
  transition_id: null,
  ...change,
});

describe('GET /meters/:id/tariff-history', () => {
  it('records the tariff a meter is created with from the beginning of time, then each change at the request instant', async () => {
    const [first, second] = (await tariffs(2)) as [number, number];
    t.clock.stopAt('2026-03-01T08:00:00.000Z');
    const meter = await createMeter(org.owner.client, org.accountId, siteId, { tariff_id: first });
    t.clock.stopAt('2026-04-01T09:30:00.000Z');
    expect((await putMeter(meter.id, { tariff_id: second })).status).toBe(200);
    // Neither a change of another field nor the same tariff again is a change of tariff.
    expect((await putMeter(meter.id, { name: 'Renamed', tariff_id: second })).status).toBe(200);
    t.clock.stopAt('2026-05-01T00:00:00.000Z');
    expect((await putMeter(meter.id, { tariff_id: null })).status).toBe(200);
    const res = await meterHistory(meter.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      list([
        meterRecord(meter.id, {
          tariff_id: first,
          effective_from: null,
          recorded_at: '2026-03-01T08:00:00.000Z',
          cause: 'CREATE',
        }),
        meterRecord(meter.id, {
          tariff_id: second,
          effective_from: '2026-04-01T09:30:00.000Z',
          recorded_at: '2026-04-01T09:30:00.000Z',
          cause: 'UPDATE',
        }),
        meterRecord(meter.id, {
          tariff_id: null,
          effective_from: '2026-05-01T00:00:00.000Z',
          recorded_at: '2026-05-01T00:00:00.000Z',
          cause: 'UPDATE',
        }),
      ]),
    );
    const [a, b, c] = res.body.data.map((r: { id: number }) => r.id);
    expect(a < b && b < c).toBe(true);
  });

  it('counts the first tariff of a meter created without one from the beginning of time', async () => {
    const [tariff] = (await tariffs(1)) as [number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId);
    expect(await meterHistory(meter.id)).toMatchObject({ status: 200, body: list([]) });
    t.clock.stopAt('2026-06-15T12:00:00.000Z');
    await putMeter(meter.id, { tariff_id: tariff });
    expect((await meterHistory(meter.id)).body).toEqual(
      list([
        meterRecord(meter.id, {
          tariff_id: tariff,
          effective_from: null,
          recorded_at: '2026-06-15T12:00:00.000Z',
          cause: 'UPDATE',
        }),
      ]),
    );
  });

  it('answers 403 for another organization’s meter or a non-member, 404 for an unknown meter, 401 without a token', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, siteId);
    expect(await meterHistory(foreign.meterId)).toMatchObject({ status: 403, body: ownedByAnother('Meter') });
    expect(await meterHistory(meter.id, org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    expect(await meterHistory(2_000_000_000)).toMatchObject({ status: 404, body: notFound('Meter') });
    const anonymous = await call(t.app, 'GET', meterHistoryPath(meter.id), { query: { account_id: org.accountId } });
    expect(anonymous).toMatchObject({ status: 401, body: AUTH_REQUIRED });
  });

  it('reads account_id in any case', async () => {
    const [tariff] = (await tariffs(1)) as [number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId, { tariff_id: tariff });
    const lower = await meterHistory(meter.id);
    const upper = await meterHistory(meter.id, org.member, org.accountId.toUpperCase());
    expect(upper.status).toBe(200);
    expect(upper.body).toEqual(lower.body);
    expect(upper.body.count).toBe(1);
  });
});

describe('transitions in the history', () => {
  it('records a transition applied at once at its effective_from, for meters and config sources', async () => {
    const [predecessor, successor] = (await tariffs(2)) as [number, number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId, { tariff_id: predecessor });
    const block = (await createBlock(org.owner.client, org.accountId)).id;
    await putConfig(block, { grid_tariff_id: predecessor, load_tariff_id: predecessor, solar_tariff_id: successor });
    t.clock.stopAt('2026-06-10T12:00:00.000Z');
    const created = await createTransition(predecessor, successor, '2026-06-01T00:00:00.000Z');
    expect(created.body.data.application).toEqual({ applied: true, meters_updated: 1, configs_updated: 1 });
    const applied: Change = {
      tariff_id: successor,
      effective_from: '2026-06-01T00:00:00.000Z',
      recorded_at: '2026-06-10T12:00:00.000Z',
      cause: 'TRANSITION',
      transition_id: created.body.data.id,
    };
    expect((await meterHistory(meter.id)).body.data.at(-1)).toEqual(meterRecord(meter.id, applied));
    const sources = (await configHistory(block)).body;
    expect(sources.count).toBe(5);
    expect(sources.data.slice(3)).toEqual([sourceRecord(block, 'grid', applied), sourceRecord(block, 'load', applied)]);
  });

  it('records a transition the scheduler applies at its effective_from, not at the instant it runs', async () => {
    const [predecessor, successor] = (await tariffs(2)) as [number, number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId, { tariff_id: predecessor });
    t.clock.stopAt('2026-07-01T00:00:00.000Z');
    const created = await createTransition(predecessor, successor, '2026-07-02T00:00:00.000Z');
    expect(created.body.data.application.applied).toBe(false);
    expect((await meterHistory(meter.id)).body.count).toBe(1);
    t.clock.stopAt('2026-07-05T06:00:00.000Z');
    expect(await t.app.transitionScheduler.runOnce()).toBe(1);
    expect((await meterHistory(meter.id)).body.data.at(-1)).toEqual(
      meterRecord(meter.id, {
        tariff_id: successor,
        effective_from: '2026-07-02T00:00:00.000Z',
        recorded_at: '2026-07-05T06:00:00.000Z',
        cause: 'TRANSITION',
        transition_id: created.body.data.id,
      }),
    );
  });

  it('takes a transition applied after the meter was moved onto its predecessor as effective from that move', async () => {
    const [before, predecessor, successor] = (await tariffs(3)) as [number, number, number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId, { tariff_id: before });
    t.clock.stopAt('2026-07-20T00:00:00.000Z');
    const created = await createTransition(predecessor, successor, '2026-08-01T00:00:00.000Z');
    t.clock.stopAt('2026-08-10T00:00:00.000Z');
    await putMeter(meter.id, { tariff_id: predecessor });
    t.clock.stopAt('2026-08-11T00:00:00.000Z');
    expect(await t.app.transitionScheduler.runOnce()).toBe(1);
    expect((await meterHistory(meter.id)).body.data.slice(1)).toEqual([
      meterRecord(meter.id, {
        tariff_id: predecessor,
        effective_from: '2026-08-10T00:00:00.000Z',
        recorded_at: '2026-08-10T00:00:00.000Z',
        cause: 'UPDATE',
      }),
      meterRecord(meter.id, {
        tariff_id: successor,
        effective_from: '2026-08-10T00:00:00.000Z',
        recorded_at: '2026-08-11T00:00:00.000Z',
        cause: 'TRANSITION',
        transition_id: created.body.data.id,
      }),
    ]);
  });
});

describe('GET /building_blocks/:id/config/tariff-history', () => {
  it('records the sources whose tariff a config write sets or changes, and a deleted config’s sources as without one', async () => {
    const [t1, t2, t3] = (await tariffs(3)) as [number, number, number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId);
    const block = (await createBlock(org.owner.client, org.accountId)).id;
    t.clock.stopAt('2026-02-01T00:00:00.000Z');
    await putConfig(block, { grid_meter_id: meter.id, grid_tariff_id: t1, solar_tariff_id: t2 });
    t.clock.stopAt('2026-02-15T00:00:00.000Z');
    // grid unchanged; solar changes; load gets its first tariff, which counts from the beginning.
    await putConfig(block, { grid_tariff_id: t1, solar_tariff_id: t3, load_tariff_id: t1 });
    await putConfig(block, { grid_meter_id: null, genset_tariff_id: null });
    t.clock.stopAt('2026-03-01T00:00:00.000Z');
    expect((await org.owner.client.delete(configPath(block), { account_id: org.accountId })).status).toBe(204);
    expect(await configHistory(block)).toMatchObject({ status: 404, body: notFound('Dashboard config') });
    t.clock.stopAt('2026-03-10T00:00:00.000Z');
    await putConfig(block, { grid_tariff_id: t2 });
    const at = (instant: string) => ({ effective_from: instant, recorded_at: instant });
    const res = await configHistory(block);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      list([
        sourceRecord(block, 'grid', {
          tariff_id: t1,
          effective_from: null,
          recorded_at: '2026-02-01T00:00:00.000Z',
          cause: 'UPDATE',
        }),
        sourceRecord(block, 'solar', {
          tariff_id: t2,
          effective_from: null,
          recorded_at: '2026-02-01T00:00:00.000Z',
          cause: 'UPDATE',
        }),
        sourceRecord(block, 'load', {
          tariff_id: t1,
          effective_from: null,
          recorded_at: '2026-02-15T00:00:00.000Z',
          cause: 'UPDATE',
        }),
        sourceRecord(block, 'solar', { tariff_id: t3, ...at('2026-02-15T00:00:00.000Z'), cause: 'UPDATE' }),
        sourceRecord(block, 'grid', { tariff_id: null, ...at('2026-03-01T00:00:00.000Z'), cause: 'DELETE' }),
        sourceRecord(block, 'solar', { tariff_id: null, ...at('2026-03-01T00:00:00.000Z'), cause: 'DELETE' }),
        sourceRecord(block, 'load', { tariff_id: null, ...at('2026-03-01T00:00:00.000Z'), cause: 'DELETE' }),
        sourceRecord(block, 'grid', { tariff_id: t2, ...at('2026-03-10T00:00:00.000Z'), cause: 'UPDATE' }),
      ]),
    );
  });

  it('answers 403 for another organization’s block or a non-member, 404 for an unknown block or one without a config', async () => {
    const block = (await createBlock(org.owner.client, org.accountId)).id;
    expect(await configHistory(block)).toMatchObject({ status: 404, body: notFound('Dashboard config') });
    expect(await configHistory(foreign.blockId)).toMatchObject({
      status: 403,
      body: ownedByAnother('Building block'),
    });
    expect(await configHistory(block, org.outsider)).toMatchObject({ status: 403, body: FORBIDDEN_NOT_MEMBER });
    expect(await configHistory(2_000_000_000)).toMatchObject({ status: 404, body: notFound('Building block') });
    const anonymous = await call(t.app, 'GET', configHistoryPath(block), { query: { account_id: org.accountId } });
    expect(anonymous).toMatchObject({ status: 401, body: AUTH_REQUIRED });
  });

  it('reads account_id in any case', async () => {
    const [tariff] = (await tariffs(1)) as [number];
    const block = (await createBlock(org.owner.client, org.accountId)).id;
    await putConfig(block, { inverter_tariff_id: tariff });
    const upper = await configHistory(block, org.member, org.accountId.toUpperCase());
    expect(upper.status).toBe(200);
    expect(upper.body).toEqual((await configHistory(block)).body);
    expect(upper.body.data.map((r: { source: string }) => r.source)).toEqual(['inverter']);
  });
});

describe('the migration', () => {
  it('records what is assigned when history begins as counting from the beginning of time', async () => {
    const [meterTariff, gridTariff, loadTariff] = (await tariffs(3)) as [number, number, number];
    const meter = await createMeter(org.owner.client, org.accountId, siteId, { tariff_id: meterTariff });
    const block = (await createBlock(org.owner.client, org.accountId)).id;
    await putConfig(block, { grid_tariff_id: gridTariff, load_tariff_id: loadTariff });
    await t.db.query('DROP TABLE tariff_history');
    await t.db.query(`DELETE FROM schema_migrations WHERE name = '0009_tariff_history.sql'`);
    expect(await migrate(t.db)).toEqual(['0009_tariff_history.sql']);
    const existing = (tariffId: number) => ({
      tariff_id: tariffId,
      effective_from: null,
      recorded_at: expect.any(String),
      cause: 'EXISTING' as const,
    });
    expect((await meterHistory(meter.id)).body).toEqual(list([meterRecord(meter.id, existing(meterTariff))]));
    expect((await configHistory(block)).body).toEqual(
      list([sourceRecord(block, 'grid', existing(gridTariff)), sourceRecord(block, 'load', existing(loadTariff))]),
    );
  });
});
