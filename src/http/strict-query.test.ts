import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock } from '../../test/helpers/building-factories.ts';
import { failure } from '../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { insertMeter, type TestMeter, TIMESERIES } from '../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
let meter: TestMeter;
beforeAll(async () => {
  t = await startTestApp();
  r = await organizationWithRoles(t.app);
  meter = await insertMeter(t.db, r.accountId);
  await createBlock(r.owner.client, r.accountId, { name: 'Alpha' });
});
afterAll(async () => t.close());

const unrecognized = (...names: string[]) =>
  failure('Invalid query', names.map((name) => `${name}: Unrecognized parameter`).join('; '));

describe('query parameters are read strictly', () => {
  const profile = () => ({
    account_id: r.accountId,
    meter_sn: meter.meter_sn,
    start: '2026-03-02T00:00:00Z',
    end: '2026-03-03T00:00:00Z',
  });

  it('answers a misspelt parameter with 400 Invalid query naming it, not the default', async () => {
    const res = await r.member.client.get(`${TIMESERIES}/energy-profile`, { ...profile(), bucket_minute: 15 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unrecognized('bucket_minute'));
    const spelt = await r.member.client.get(`${TIMESERIES}/energy-profile`, { ...profile(), bucket_minutes: 15 });
    expect(spelt.status).toBe(200);
  });

  it('names every unknown parameter, before any other check of the query', async () => {
    const res = await r.member.client.get('/api/v1/building_blocks', { account_id: 'not-a-uuid', colour: 'red', x: 1 });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unrecognized('colour', 'x'));
  });

  it('keeps the list aliases sort_by and sort_order', async () => {
    const query = { account_id: r.accountId, sort_by: 'name', sort_order: 'asc' };
    const res = await r.member.client.get('/api/v1/building_blocks', query);
    expect(res.status).toBe(200);
    const names = res.body.data.map((b: { name: string }) => b.name);
    expect(names[0]).toBe('Alpha');
    expect(names).toEqual([...names].sort());
  });

  it('refuses an alias on a route that is not a list, by the name that was sent', async () => {
    const res = await r.member.client.get(`/api/v1/organizations/${r.accountId}`, { sort_by: 'name' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unrecognized('sort_by'));
  });

  it('refuses any parameter on a route that takes none', async () => {
    const res = await r.member.client.get('/api/v1/auth/organizations', { account_id: r.accountId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unrecognized('account_id'));
    const plain = await r.member.client.get('/api/v1/auth/organizations');
    expect(plain.status).toBe(200);
  });

  it('refuses unknown parameters on writes too', async () => {
    const before = await r.member.client.get('/api/v1/building_blocks', { account_id: r.accountId });
    const res = await r.owner.client.post(`/api/v1/building_blocks?dry_run=true`, {
      account_id: r.accountId,
      name: 'Beta',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(unrecognized('dry_run'));
    const blocks = await r.member.client.get('/api/v1/building_blocks', { account_id: r.accountId });
    expect(blocks.body.count).toBe(before.body.count);
  });
});
