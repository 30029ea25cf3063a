import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { App } from '../../src/http/types.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { organizationWithRoles } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import { checkResponses } from '../helpers/response-schemas.ts';
import { insertBuildingBlock, insertMeter, insertReadings } from '../helpers/sql-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const START = '2025-03-03T00:00:00.000Z';
const RANGE = { start: START, end: '2025-03-04T00:00:00.000Z' };

let database: TestDatabase;
let app: App;
let hold: ReturnType<typeof holdable>['hold'];
let r: Awaited<ReturnType<typeof organizationWithRoles>>;

beforeAll(async () => {
  database = await createTestDatabase();
  const holding = holdable(database.db);
  hold = holding.hold;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    SEED_DEMO: 'false',
    REQUESTS_PER_USER: '1',
    KEPT_MONTHS_BYTES: '0',
  });
  app = await buildApp({ config, db: holding.db, keys: generateSigningKeys() });
  checkResponses(app);
  await app.ready();
  r = await organizationWithRoles(app);
  const blockId = await insertBuildingBlock(database.db, r.accountId);
  const meterId = await insertMeter(database.db, r.accountId, blockId, { meterSn: 'GATE-001' });
  await insertReadings(database.db, meterId, START, 4, () => ({ import_kwh: 1, power_kw: 2 }));
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

async function requestsInFlight(state: 'running' | 'waiting'): Promise<number> {
  const metrics = await app.inject({ method: 'GET', url: '/metrics' });
  return Number(new RegExp(`^ums_requests_in_flight\\{state="${state}"\\} (\\d+)$`, 'm').exec(metrics.body)?.[1]);
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
});
