import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { ingest, TIMESERIES } from '../../../test/helpers/timeseries-factories.ts';

// Reads find a meter by its serial in the read cache: a change of the meter is seen at once.

let t: TestApp;
let org: OrganizationWithRoles;
beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

const DAY = { start: '2025-06-01T00:00:00.000Z', end: '2025-06-02T00:00:00.000Z' };

const energySum = (meterSn: string) =>
  org.member.client.get(`${TIMESERIES}/energy-sum`, { account_id: org.accountId, meter_sn: meterSn, ...DAY });

const updateMeter = (id: number, body: Record<string, unknown>) =>
  org.owner.client.put(`/api/v1/meters/${id}`, { account_id: org.accountId, ...body });

describe('a meter looked up by its serial for a read', () => {
  it('is found by its new serial and no more by its old one as soon as it is renamed', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const meter = await createMeter(org.owner.client, org.accountId, block.id);
    await ingest(org.owner.client, org.accountId, meter.meter_sn, [{ ts: DAY.start, import_kwh: 2.5 }]);
    expect((await energySum(meter.meter_sn)).body.data).toMatchObject({ meter_sn: meter.meter_sn, import_kwh: 2.5 });

    const renamed = `${meter.meter_sn}-B`;
    expect((await updateMeter(meter.id, { meter_sn: renamed })).status).toBe(200);
    const old = await energySum(meter.meter_sn);
    expect(old.status).toBe(404);
    expect(old.body.error).toBe(`Meter ${meter.meter_sn} not found`);
    expect((await energySum(renamed)).body.data).toMatchObject({ meter_sn: renamed, import_kwh: 2.5 });
  });

  it('answers 400 as soon as the meter is no longer an electricity meter, and 404 once it is deleted', async () => {
    const block = await createBlock(org.owner.client, org.accountId);
    const meter = await createMeter(org.owner.client, org.accountId, block.id);
    expect((await energySum(meter.meter_sn)).status).toBe(200);

    expect((await updateMeter(meter.id, { meter_type: 'WATER' })).status).toBe(200);
    const water = await energySum(meter.meter_sn);
    expect(water.status).toBe(400);
    expect(water.body.error).toBe(`meter_sn: Meter ${meter.meter_sn} is not an electricity meter`);

    expect((await updateMeter(meter.id, { meter_type: 'ELECTRICITY' })).status).toBe(200);
    expect((await energySum(meter.meter_sn)).status).toBe(200);
    const deleted = await org.owner.client.delete(`/api/v1/meters/${meter.id}`, { account_id: org.accountId });
    expect(deleted.status).toBe(204);
    expect((await energySum(meter.meter_sn)).status).toBe(404);
  });
});
