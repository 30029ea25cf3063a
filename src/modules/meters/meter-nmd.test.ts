import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter, meterBody } from '../../../test/helpers/building-factories.ts';
import { invalid } from '../../../test/helpers/envelopes.ts';
import { organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

// A meter's notified maximum demand (extensions §11.5): a number >= 0 or null.

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let blockId: number;
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  blockId = (await createBlock(org.owner.client, org.accountId)).id;
});
afterAll(async () => t.close());

const base = '/api/v1/meters';

describe('notified_max_demand_kva', () => {
  it('is null unless given, and is stored, read and listed as given', async () => {
    const without = await createMeter(org.owner.client, org.accountId, blockId);
    expect(without.notified_max_demand_kva).toBeNull();
    const res = await org.owner.client.post(
      base,
      meterBody(org.accountId, blockId, { meter_sn: 'NMD-1', notified_max_demand_kva: 1250.5 }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ meter_sn: 'NMD-1', notified_max_demand_kva: 1250.5 });
    const read = await org.member.client.get(`${base}/${res.body.data.id}`, { account_id: org.accountId });
    expect(read.body).toEqual({ success: true, message: null, data: res.body.data });
    const list = await org.member.client.get(base, { account_id: org.accountId, query: 'NMD-1' });
    expect(list.body.data).toEqual([res.body.data]);
  });

  it('is changed and cleared by an update, and kept when the update leaves it out', async () => {
    const meter = await createMeter(org.owner.client, org.accountId, blockId, { notified_max_demand_kva: 100 });
    const url = `${base}/${meter.id}`;
    const changed = await org.admin.client.put(url, { account_id: org.accountId, notified_max_demand_kva: 0.125 });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toEqual({ ...meter, notified_max_demand_kva: 0.125, updated_at: expect.any(String) });
    const renamed = await org.owner.client.put(url, { account_id: org.accountId, name: 'Main intake' });
    expect(renamed.body.data).toMatchObject({ name: 'Main intake', notified_max_demand_kva: 0.125 });
    const zero = await org.owner.client.put(url, { account_id: org.accountId, notified_max_demand_kva: 0 });
    expect(zero.body.data.notified_max_demand_kva).toBe(0);
    const cleared = await org.owner.client.put(url, { account_id: org.accountId, notified_max_demand_kva: null });
    expect(cleared.body.data.notified_max_demand_kva).toBeNull();
  });

  it.each([
    [-1, 'notified_max_demand_kva: Too small: expected number to be >=0'],
    [1_000_000.001, 'notified_max_demand_kva: Too big: expected number to be <=1000000'],
    [12.0005, 'notified_max_demand_kva: Must have at most 3 decimals'],
    ['500', 'notified_max_demand_kva: Invalid input: expected number, received string'],
    [true, 'notified_max_demand_kva: Invalid input: expected number, received boolean'],
  ])('answers %j with 400 on create and on update, and changes nothing', async (value, error) => {
    const created = await org.owner.client.post(
      base,
      meterBody(org.accountId, blockId, { meter_sn: 'NMD-BAD', notified_max_demand_kva: value }),
    );
    expect([created.status, created.body]).toEqual([400, invalid(error)]);
    const meter = await createMeter(org.owner.client, org.accountId, blockId, { notified_max_demand_kva: 5 });
    const updated = await org.owner.client.put(`${base}/${meter.id}`, {
      account_id: org.accountId,
      notified_max_demand_kva: value,
    });
    expect([updated.status, updated.body]).toEqual([400, invalid(error)]);
    const read = await org.owner.client.get(`${base}/${meter.id}`, { account_id: org.accountId });
    expect(read.body.data).toEqual(meter);
    const bad = await org.owner.client.get(base, { account_id: org.accountId, query: 'NMD-BAD' });
    expect(bad.body.count).toBe(0);
  });
});

describe('API reference', () => {
  it('documents notified_max_demand_kva with its bounds on create and on update', async () => {
    const doc = (await org.owner.client.get('/api/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/api/v1/meters', 'post'],
      ['/api/v1/meters/{id}', 'put'],
    ] as const) {
      const schema = doc.paths[path][method].requestBody.content['application/json'].schema;
      expect(schema.properties.notified_max_demand_kva).toEqual({
        anyOf: [{ type: 'number', minimum: 0, maximum: 1_000_000 }, { type: 'null' }],
        description: expect.stringContaining('Notified maximum demand (NMD) in kVA'),
      });
      expect(schema.required ?? []).not.toContain('notified_max_demand_kva');
    }
  });
});
