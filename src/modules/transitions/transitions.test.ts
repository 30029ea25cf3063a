import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflict, invalid, notFound, READ_ONLY } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { call } from '../../../test/helpers/http.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertTariff,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const url = (tariffId: number) => `/api/v1/tariffs/${tariffId}/transitions`;
const hourFromNow = () => new Date(Date.now() + 3600_000).toISOString();
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();

async function tariffPair() {
  return { pred: await insertTariff(t.db, r.accountId, 'Old'), succ: await insertTariff(t.db, r.accountId, 'New') };
}

async function meterTariffs(ids: number[]) {
  const rows = await t.db.query<{ id: number; tariff_id: number | null }>(
    'SELECT id, tariff_id FROM meters WHERE id = ANY($1::int[]) ORDER BY id',
    [ids],
  );
  return rows.map((m) => m.tariff_id);
}

describe('create', () => {
  it('records a future transition without applying it', async () => {
    const { pred, succ } = await tariffPair();
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meter = await insertMeter(t.db, r.accountId, block, { tariffId: pred });
    const effective = hourFromNow();
    const res = await r.admin.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: effective,
      notes: 'Annual increase',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      message: null,
      data: {
        id: expect.any(Number),
        predecessor_id: pred,
        successor_id: succ,
        effective_from: new Date(effective).toISOString(),
        notes: 'Annual increase',
        created_at: expect.any(String),
        created_by: r.admin.id,
        applied_at: null,
        application: { applied: false, meters_updated: 0, configs_updated: 0 },
      },
    });
    expect(await meterTariffs([meter])).toEqual([pred]);
    const read = await r.member.client.get(url(pred), { account_id: r.accountId });
    expect(read.status).toBe(200);
    const { application: _omitted, ...stored } = res.body.data;
    expect(read.body.data).toEqual(stored);
  });

  it('applies a transition effective now or earlier at once, to every meter and config field naming the predecessor', async () => {
    const { pred, succ } = await tariffPair();
    const other = await insertTariff(t.db, r.accountId, 'Unrelated');
    const [b1, b2, b3] = [
      await insertBuildingBlock(t.db, r.accountId),
      await insertBuildingBlock(t.db, r.accountId),
      await insertBuildingBlock(t.db, r.accountId),
    ];
    const meters = [
      await insertMeter(t.db, r.accountId, b1, { tariffId: pred }),
      await insertMeter(t.db, r.accountId, b1, { tariffId: pred }),
      await insertMeter(t.db, r.accountId, b2, { tariffId: other }),
      await insertMeter(t.db, r.accountId, b2),
    ];
    await insertDashboardConfig(t.db, r.accountId, b1, { grid: pred, load: pred, solar: other });
    await insertDashboardConfig(t.db, r.accountId, b2, { genset: pred });
    await insertDashboardConfig(t.db, r.accountId, b3, { grid: other });
    const res = await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: hourAgo(),
    });
    expect(res.status).toBe(201);
    expect(res.body.data.application).toEqual({ applied: true, meters_updated: 2, configs_updated: 2 });
    expect(res.body.data.applied_at).toEqual(expect.any(String));
    expect(res.body.data.notes).toBe('');
    expect(await meterTariffs(meters)).toEqual([succ, succ, other, null]);
    const configs = await t.db.query(
      `SELECT building_block_id, grid_tariff_id, solar_tariff_id, genset_tariff_id, load_tariff_id
       FROM energy_dashboard_configs WHERE building_block_id = ANY($1::int[]) ORDER BY building_block_id`,
      [[b1, b2, b3]],
    );
    expect(configs).toEqual([
      {
        building_block_id: b1,
        grid_tariff_id: succ,
        solar_tariff_id: other,
        genset_tariff_id: null,
        load_tariff_id: succ,
      },
      {
        building_block_id: b2,
        grid_tariff_id: null,
        solar_tariff_id: null,
        genset_tariff_id: succ,
        load_tariff_id: null,
      },
      {
        building_block_id: b3,
        grid_tariff_id: other,
        solar_tariff_id: null,
        genset_tariff_id: null,
        load_tariff_id: null,
      },
    ]);
  });

  it('answers 409 for a second successor transition of the same predecessor', async () => {
    const { pred, succ } = await tariffPair();
    const third = await insertTariff(t.db, r.accountId);
    await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: hourFromNow(),
    });
    const res = await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: third,
      effective_from: hourFromNow(),
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(conflict('The tariff already has a successor transition'));
  });

  it('rejects an invalid successor with 400: itself, unknown, deleted, another organization, or a cycle', async () => {
    const { pred, succ } = await tariffPair();
    const deleted = await insertTariff(t.db, r.accountId);
    await t.db.query('UPDATE tariffs SET deleted_at = now() WHERE id = $1', [deleted]);
    const foreign = await insertTariff(t.db, r.otherAccountId);
    const cases: [number, string][] = [
      [pred, 'successor_id: A tariff cannot be its own successor'],
      [999_999, 'successor_id: The successor must be an existing tariff of the same organization'],
      [deleted, 'successor_id: The successor must be an existing tariff of the same organization'],
      [foreign, 'successor_id: The successor must be an existing tariff of the same organization'],
      [1, 'successor_id: The successor must be an existing tariff of the same organization'],
    ];
    for (const [successor, error] of cases) {
      const res = await r.owner.client.post(url(pred), {
        account_id: r.accountId,
        successor_id: successor,
        effective_from: hourFromNow(),
      });
      expect(res.status, String(successor)).toBe(400);
      expect(res.body).toEqual(invalid(error));
    }
    // pred -> succ exists; succ -> pred would close the loop.
    await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: hourFromNow(),
    });
    const cycle = await r.owner.client.post(url(succ), {
      account_id: r.accountId,
      successor_id: pred,
      effective_from: hourFromNow(),
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.error).toBe('successor_id: The transition would form a cycle back to the predecessor');
  });

  it.each([
    [{ successor_id: 5, effective_from: 'tomorrow' }, 'effective_from: Invalid ISO datetime'],
    [{ effective_from: '2026-01-01T00:00:00Z' }, 'successor_id: Invalid input: expected number, received undefined'],
    [
      { successor_id: '5', effective_from: '2026-01-01T00:00:00Z' },
      'successor_id: Invalid input: expected number, received string',
    ],
  ])('rejects the body %j with 400', async (body, error) => {
    const { pred } = await tariffPair();
    const res = await r.owner.client.post(url(pred), { account_id: r.accountId, ...body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(invalid(error));
  });

  it('guards the catalogue (400), the organization (403) and unknown tariffs (404)', async () => {
    const { pred, succ } = await tariffPair();
    const body = { account_id: r.accountId, successor_id: succ, effective_from: hourFromNow() };
    const catalogue = await r.owner.client.post(url(1), body);
    expect(catalogue.status).toBe(400);
    expect(catalogue.body).toEqual(READ_ONLY);
    const member = await r.member.client.post(url(pred), body);
    expect(member.status).toBe(403);
    const outsider = await r.outsider.client.post(url(pred), body);
    expect(outsider.status).toBe(403);
    const outsiderOwnAccount = await r.outsider.client.post(url(pred), { ...body, account_id: r.otherAccountId });
    expect(outsiderOwnAccount.status).toBe(403);
    expect(outsiderOwnAccount.body.error).toBe('Tariff belongs to another organization');
    const unknown = await r.owner.client.post(url(999_999), body);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(notFound('Tariff'));
    expect((await r.owner.client.get(url(pred), { account_id: r.accountId })).status).toBe(404);
    expect((await call(t.app, 'POST', url(pred), { body })).status).toBe(401);
  });
});

describe('read, update, delete', () => {
  it('answers 404 when the tariff has no successor transition', async () => {
    const { pred } = await tariffPair();
    const res = await r.owner.client.get(url(pred), { account_id: r.accountId });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(notFound('Transition'));
    expect((await r.outsider.client.get(url(pred), { account_id: r.accountId })).status).toBe(403);
  });

  it('updates a pending transition, applies it when the new date is due, then refuses further updates (409)', async () => {
    const { pred, succ } = await tariffPair();
    const other = await insertTariff(t.db, r.accountId);
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meter = await insertMeter(t.db, r.accountId, block, { tariffId: pred });
    await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: hourFromNow(),
    });
    const renamed = await r.admin.client.put(url(pred), {
      account_id: r.accountId,
      successor_id: other,
      notes: 'changed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ successor_id: other, notes: 'changed', applied_at: null });
    expect(renamed.body.data.application).toEqual({ applied: false, meters_updated: 0, configs_updated: 0 });
    const due = await r.admin.client.put(url(pred), { account_id: r.accountId, effective_from: hourAgo() });
    expect(due.body.data.application).toEqual({ applied: true, meters_updated: 1, configs_updated: 0 });
    expect(await meterTariffs([meter])).toEqual([other]);
    const again = await r.admin.client.put(url(pred), { account_id: r.accountId, notes: 'too late' });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('The transition has already been applied');
    const self = await r.admin.client.put(url(pred), { account_id: r.accountId, successor_id: pred });
    expect(self.status).toBe(400);
    const member = await r.member.client.put(url(pred), { account_id: r.accountId, notes: 'x' });
    expect(member.status).toBe(403);
    const { pred: lonely } = await tariffPair();
    expect((await r.admin.client.put(url(lonely), { account_id: r.accountId, notes: 'x' })).status).toBe(404);
  });

  it('deletes the transition (204), then answers 404', async () => {
    const { pred, succ } = await tariffPair();
    await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: hourFromNow(),
    });
    expect((await r.member.client.delete(url(pred), { account_id: r.accountId })).status).toBe(403);
    expect((await r.outsider.client.delete(url(pred), { account_id: r.accountId })).status).toBe(403);
    const res = await r.owner.client.delete(url(pred), { account_id: r.accountId });
    expect(res.status).toBe(204);
    expect((await r.owner.client.get(url(pred), { account_id: r.accountId })).status).toBe(404);
    expect((await r.owner.client.delete(url(pred), { account_id: r.accountId })).status).toBe(404);
    expect((await r.owner.client.delete(url(1), { account_id: r.accountId })).body.message).toBe(
      'Catalogue is read-only',
    );
  });
});

describe('scheduled application', () => {
  it('applies a transition when it falls due, exactly once', async () => {
    const { pred, succ } = await tariffPair();
    const block = await insertBuildingBlock(t.db, r.accountId);
    const meter = await insertMeter(t.db, r.accountId, block, { tariffId: pred });
    await insertDashboardConfig(t.db, r.accountId, block, { grid: pred });
    const created = await r.owner.client.post(url(pred), {
      account_id: r.accountId,
      successor_id: succ,
      effective_from: hourFromNow(),
    });
    expect(await t.app.transitionScheduler.runOnce()).toBe(0);
    t.clock.advance(3601);
    try {
      // Other tests' pending transitions fall due too; a second run finds nothing left.
      expect(await t.app.transitionScheduler.runOnce()).toBeGreaterThanOrEqual(1);
      expect(await t.app.transitionScheduler.runOnce()).toBe(0);
    } finally {
      t.clock.advance(-3601);
    }
    expect(await meterTariffs([meter])).toEqual([succ]);
    const applications = await t.db.query(
      'SELECT meters_updated, configs_updated FROM tariff_transition_applications WHERE transition_id = $1',
      [created.body.data.id],
    );
    expect(applications).toEqual([{ meters_updated: 1, configs_updated: 1 }]);
    const read = await r.owner.client.get(url(pred), { account_id: r.accountId });
    expect(read.body.data.applied_at).toEqual(expect.any(String));
  });

  it('runs by itself every TRANSITION_POLL_S seconds', async () => {
    const fast = await startTestApp({ TRANSITION_POLL_S: '0.1' });
    try {
      const owners = await organizationWithRoles(fast.app);
      const pred = await insertTariff(fast.db, owners.accountId);
      const succ = await insertTariff(fast.db, owners.accountId);
      const block = await insertBuildingBlock(fast.db, owners.accountId);
      const meter = await insertMeter(fast.db, owners.accountId, block, { tariffId: pred });
      const created = await owners.owner.client.post(url(pred), {
        account_id: owners.accountId,
        successor_id: succ,
        effective_from: hourFromNow(),
      });
      expect(created.body.data.applied_at).toBeNull();
      // The application's clock moves past the date: the next poll applies the transition by itself.
      fast.clock.advance(3601);
      let tariffId: number | null = pred;
      while (tariffId === pred) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        [{ tariff_id: tariffId }] = (await fast.db.query<{ tariff_id: number }>(
          'SELECT tariff_id FROM meters WHERE id = $1',
          [meter],
        )) as [{ tariff_id: number }];
      }
      expect(tariffId).toBe(succ);
    } finally {
      await fast.close();
    }
  });
});
