import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { organizationWithRoles } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import { insertBuildingBlock, insertMeter } from '../helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let hold: ReturnType<typeof holdable>['hold'];
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
let meterId: number;

beforeAll(async () => {
  t = await startTestApp(
    {},
    {
      serveFrom: (db) => {
        const holding = holdable(db, 'meters');
        hold = holding.hold;
        return holding.db;
      },
    },
  );
  r = await organizationWithRoles(t.app);
  const blockId = await insertBuildingBlock(t.db, r.accountId);
  meterId = await insertMeter(t.db, r.accountId, blockId, { meterSn: 'PAGES-001' });
}, 120_000);

afterAll(async () => t?.close());

const pagesGauge = async () => [
  await admissionGauge(t.app, 'ums_pages_and_writes', 'running'),
  await admissionGauge(t.app, 'ums_pages_and_writes', 'waiting'),
];

describe('pages of lists admitted as work', () => {
  it('counts a request for a page of a list as work until it is answered, and a record read not', async () => {
    const heldList = hold();
    const list = r.admin.client.get('/api/v1/meters', { account_id: r.accountId });
    await heldList.reached;
    expect(await pagesGauge()).toEqual([1, 0]);
    heldList.release();
    const page = await list;
    expect(page.status).toBe(200);
    expect(page.body.count).toBe(1);
    expect(page.body.data.map((meter: { meter_sn: string }) => meter.meter_sn)).toEqual(['PAGES-001']);
    expect(await pagesGauge()).toEqual([0, 0]);

    const heldRecord = hold();
    const record = r.admin.client.get(`/api/v1/meters/${meterId}`, { account_id: r.accountId });
    await heldRecord.reached;
    expect(await pagesGauge()).toEqual([0, 0]);
    expect(await admissionGauge(t.app, 'ums_requests_in_flight', 'running')).toBe(1);
    heldRecord.release();
    const read = await record;
    expect(read.status).toBe(200);
    expect(read.body.data.meter_sn).toBe('PAGES-001');
  });
});
