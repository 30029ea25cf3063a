import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../../test/helpers/building-factories.ts';
import { FORBIDDEN_NOT_MEMBER } from '../../../test/helpers/envelopes.ts';
import { type OrganizationWithRoles, organizationWithRoles } from '../../../test/helpers/factories.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { at, ingest } from '../../../test/helpers/timeseries-factories.ts';

let t: TestApp;
let org: OrganizationWithRoles;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
});
afterAll(async () => t.close());

// A day of 2025-03 in South African time.
const DAY = { start: '2025-03-02T22:00:00.000Z', end: '2025-03-03T22:00:00.000Z' };

interface Priced {
  tariffId: number;
  itemId: number;
  meter: { id: number; meter_sn: string };
}

/** A meter with 2 readings of 1 kWh and a flat tariff of R2/kWh and 15% tax; the bill is R4.60. */
async function pricedMeter(): Promise<Priced> {
  const blockId = (await createBlock(org.owner.client, org.accountId)).id;
  const meter = await createMeter(org.owner.client, org.accountId, blockId);
  const tariff = await createTariff(org.owner.client, org.accountId, { tax_rate: 15 });
  const [item] = await createItems(org.owner.client, tariff.id, [{ item_type_code: 'IMPORT_ENERGY', price: 2 }]);
  await ingest(org.owner.client, org.accountId, meter.meter_sn, [
    { ts: DAY.start, import_kwh: 1 },
    { ts: at(DAY.start, 30), import_kwh: 1 },
  ]);
  return { tariffId: tariff.id, itemId: item.id, meter };
}

async function bill({ tariffId, meter }: Priced, client = org.member.client, period = DAY) {
  const res = await client.get(`/api/v1/tariffs/${tariffId}/cost`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    ...period,
  });
  return res;
}

async function total(priced: Priced, period = DAY): Promise<number> {
  const res = await bill(priced, org.member.client, period);
  expect(res.status).toBe(200);
  return res.body.data.total;
}

/** How many bills the service has priced (not answered as kept), as /metrics says. */
async function billsPriced(): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  return Number(/^ums_bills_priced_total (\S+)$/m.exec(res.body)![1]);
}

/**
 * The meter's bill once it is kept: asked for until a request prices nothing. On PostgreSQL the
 * service keeps nothing of a meter or tariff just written until it hears its own commit notice.
 */
async function keptTotal(priced: Priced): Promise<number> {
  for (;;) {
    const before = await billsPriced();
    const value = await total(priced);
    if ((await billsPriced()) === before) return value;
  }
}

describe('bills kept until what they were priced from changes', () => {
  it('keeps a bill asked for twice: readings written behind the service are not priced until the meter is written to', async () => {
    const priced = await pricedMeter();
    // Kept from the second request of the period on: the first is priced, the second too.
    const before = await billsPriced();
    expect(await total(priced)).toBe(4.6);
    expect(await keptTotal(priced)).toBe(4.6);
    expect(await billsPriced()).toBeGreaterThanOrEqual(before + 2);
    await t.db.query('UPDATE readings SET import_kwh = 3 WHERE meter_id = $1', [priced.meter.id]);
    await t.db.query('UPDATE readings_hourly SET import_uwh = 6000000000 WHERE meter_id = $1', [priced.meter.id]);
    // 2 kWh kept: the meter's readings have not changed as far as the service knows.
    expect(await total(priced)).toBe(4.6);
    await ingest(org.owner.client, org.accountId, priced.meter.meter_sn, [{ ts: at(DAY.start, 60), import_kwh: 1 }]);
    // 3 + 3 + 1 = 7 kWh x R2 x 1.15 = R16.10
    expect(await total(priced)).toBe(16.1);
  });

  it('prices a changed reading at once', async () => {
    const priced = await pricedMeter();
    expect(await total(priced)).toBe(4.6);
    expect(await total(priced)).toBe(4.6);
    await ingest(org.owner.client, org.accountId, priced.meter.meter_sn, [{ ts: DAY.start, import_kwh: 2 }]);
    expect(await total(priced)).toBe(6.9);
  });

  it("prices a changed item price, tax rate and the meter's NMD at once", async () => {
    const priced = await pricedMeter();
    expect(await total(priced)).toBe(4.6);
    expect(await total(priced)).toBe(4.6);
    const item = await org.owner.client.put(`/api/v1/tariffs/${priced.tariffId}/items/${priced.itemId}`, {
      account_id: org.accountId,
      price: 3,
    });
    expect(item.status).toBe(200);
    expect(await total(priced)).toBe(6.9);
    const tariff = await org.owner.client.put(`/api/v1/tariffs/${priced.tariffId}`, {
      account_id: org.accountId,
      tax_rate: 10,
    });
    expect(tariff.status).toBe(200);
    expect(await total(priced)).toBe(6.6);
    const meter = await org.owner.client.put(`/api/v1/meters/${priced.meter.id}`, {
      account_id: org.accountId,
      notified_max_demand_kva: 40,
    });
    expect(meter.status).toBe(200);
    const res = await bill(priced);
    expect(res.status).toBe(200);
    expect(res.body.data.months[0].demand.nmd_kva).toBe(40);
  });

  it('checks access on every request, for a kept bill too', async () => {
    const priced = await pricedMeter();
    expect(await total(priced)).toBe(4.6);
    expect(await total(priced)).toBe(4.6);
    const res = await bill(priced, org.outsider.client);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(FORBIDDEN_NOT_MEMBER);
  });

  it('keeps no bill of a period asked for once', async () => {
    const priced = await pricedMeter();
    // Once a bill of the meter and tariff is kept, nothing of them waits for a notice.
    expect(await keptTotal(priced)).toBe(4.6);
    const fromHalfPast = { start: at(DAY.start, 30), end: DAY.end };
    const before = await billsPriced();
    expect(await total(priced, fromHalfPast)).toBe(2.3);
    expect(await billsPriced()).toBe(before + 1);
    // Not kept the first time: priced again, and kept from then on.
    expect(await total(priced, fromHalfPast)).toBe(2.3);
    expect(await billsPriced()).toBe(before + 2);
    expect(await total(priced, fromHalfPast)).toBe(2.3);
    expect(await billsPriced()).toBe(before + 2);
  });
});
