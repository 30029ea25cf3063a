import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { organizationWithRoles } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import { insertBuildingBlock, insertMeter, insertReadings } from '../helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const START = '2025-03-03T00:00:00.000Z';
const RANGE = { start: START, end: '2025-03-04T00:00:00.000Z' };

let t: TestApp;
let hold: ReturnType<typeof holdable>['hold'];
let r: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  t = await startTestApp(
    // Every request reads readings, where the held database holds it (holdable-database.ts).
    { REQUESTS_PER_USER: '1', KEPT_MONTHS_BYTES: '0' },
    {
      serveFrom: (db) => {
        const holding = holdable(db);
        hold = holding.hold;
        return holding.db;
      },
    },
  );
  r = await organizationWithRoles(t.app);
  const blockId = await insertBuildingBlock(t.db, r.accountId);
  const meterId = await insertMeter(t.db, r.accountId, blockId, { meterSn: 'GATE-001' });
  await insertReadings(t.db, meterId, START, 4, () => ({ import_kwh: 1, power_kw: 2 }));
}, 120_000);

afterAll(async () => t?.close());

async function requestsInFlight(state: 'running' | 'waiting'): Promise<number> {
  return admissionGauge(t.app, 'ums_requests_in_flight', state);
}

describe('a user’s requests a few at a time (REQUESTS_PER_USER=1)', () => {
  it('holds a user’s next request until their first is answered, while another user’s goes on', async () => {
    const held = hold();
    const latest = r.admin.client.get('/api/v1/timeseries/electricity/latest-power', {
      account_id: r.accountId,
      meter_sn: 'GATE-001',
      ...RANGE,
    });
    await held.reached;
    const list = r.admin.client.get('/api/v1/building_blocks', { account_id: r.accountId });
    while ((await requestsInFlight('waiting')) !== 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await requestsInFlight('running')).toBe(1);

    const neighbour = await r.member.client.get('/api/v1/building_blocks', { account_id: r.accountId });
    expect(neighbour.status).toBe(200);
    expect(neighbour.body.count).toBe(1);
    expect(await requestsInFlight('waiting')).toBe(1);

    held.release();
    const [first, second] = await Promise.all([latest, list]);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ ts: '2025-03-03T01:30:00.000Z', power_kw: 2, kva: 0 });
    expect(second.status).toBe(200);
    expect(second.body.count).toBe(1);
    expect([await requestsInFlight('running'), await requestsInFlight('waiting')]).toEqual([0, 0]);
  });

  it('holds a user’s kept profile and energy sum too, until their first request is answered', async () => {
    const query = { account_id: r.accountId, meter_sn: 'GATE-001', ...RANGE, bucket_minutes: '60' };
    const profilePath = '/api/v1/timeseries/electricity/energy-profile';
    const sumPath = '/api/v1/timeseries/electricity/energy-sum';
    // Asked twice, each is kept: asked again it reads nothing from the database.
    for (const path of [profilePath, profilePath, sumPath, sumPath]) {
      expect((await r.admin.client.get(path, query)).status).toBe(200);
    }
    const held = hold();
    const latest = r.admin.client.get('/api/v1/timeseries/electricity/latest-power', query);
    await held.reached;
    let answered = 0;
    const kept = [profilePath, sumPath].map((path) =>
      r.admin.client.get(path, query).then((reply) => {
        answered++;
        return reply;
      }),
    );
    while ((await requestsInFlight('waiting')) !== 2 && answered === 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(answered).toBe(0);
    expect([await requestsInFlight('running'), await requestsInFlight('waiting')]).toEqual([1, 2]);

    held.release();
    const [first, profile, sum] = await Promise.all([latest, kept[0]!, kept[1]!]);
    expect(first.status).toBe(200);
    expect(profile.status).toBe(200);
    expect(profile.body.data.map((bucket: { import_kwh: number }) => bucket.import_kwh)).toEqual([2, 2]);
    expect(sum.status).toBe(200);
    expect(sum.body.data.import_kwh).toBe(4);
    expect([await requestsInFlight('running'), await requestsInFlight('waiting')]).toEqual([0, 0]);
  });

  // Stored in a transaction, which on the embedded database holds every other query too: the
  // other user's request of the test above would wait for the release here.
  it('holds a user’s next small readings body until their first is stored', async () => {
    const body = (hour: number) => ({
      account_id: r.accountId,
      meter_sn: 'GATE-001',
      readings: [{ ts: `2025-03-05T${String(hour).padStart(2, '0')}:00:00.000Z`, import_kwh: 3 }],
    });
    const held = hold();
    const first = r.admin.client.post('/api/v1/timeseries/electricity/readings', body(1));
    await held.reached;
    expect([await requestsInFlight('running'), await requestsInFlight('waiting')]).toEqual([1, 0]);
    const second = r.admin.client.post('/api/v1/timeseries/electricity/readings', body(2));
    while ((await requestsInFlight('waiting')) !== 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await requestsInFlight('running')).toBe(1);

    held.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => [answer.status, answer.body.data])).toEqual([
      [200, { inserted: 1, updated: 0 }],
      [200, { inserted: 1, updated: 0 }],
    ]);
    expect([await requestsInFlight('running'), await requestsInFlight('waiting')]).toEqual([0, 0]);
  });
});
