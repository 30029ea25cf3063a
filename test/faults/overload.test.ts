import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { App } from '../../src/http/types.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { FORBIDDEN_NOT_MEMBER, failure } from '../helpers/envelopes.ts';
import { organizationWithRoles } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import type { Reply } from '../helpers/http.ts';
import { ownPeriods } from '../helpers/own-periods.ts';
import { onPostgres } from '../helpers/races.ts';
import { checkResponses } from '../helpers/response-schemas.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertReadings,
  insertTariff,
} from '../helpers/sql-fixtures.ts';
import { GAUGES_READ_FREELY, NO_SHEDDING } from '../helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const TOO_MANY = failure('Too many requests', 'Too many requests of yours waiting; retry shortly');
const TIMESERIES = '/api/v1/timeseries/electricity';
const START = '2025-03-03T00:00:00.000Z';
const minutesAfterStart = (minutes: number) => new Date(Date.parse(START) + minutes * 60_000).toISOString();

let database: TestDatabase;
let app: App;
let hold: ReturnType<typeof holdable>['hold'];
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
let blockId: number;
let tariffId: number;
let otherTariffId: number;
const meterSns: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const holding = holdable(database.db);
  hold = holding.hold;
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    SEED_DEMO: 'false',
    ...NO_SHEDDING,
    ...GAUGES_READ_FREELY,
    EXPENSIVE_CONCURRENCY_PER_ORG: '1',
    // A user has four pieces of work waiting at most (two a slot of theirs), and eight requests in progress.
    EXPENSIVE_CONCURRENCY_PER_USER: '2',
    REQUESTS_PER_USER: '8',
    EXPENSIVE_CONCURRENCY_TOTAL: '8',
    // Every request reads readings, where the held database holds it (holdable-database.ts).
    KEPT_MONTHS_BYTES: '0',
  });
  app = await buildApp({ config, db: holding.db, keys: generateSigningKeys() });
  checkResponses(app);
  await app.ready();
  r = await organizationWithRoles(app);

  const db = database.db;
  blockId = await insertBuildingBlock(db, r.accountId);
  tariffId = await insertTariff(db, r.accountId);
  await db.query(`INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 2)`, [
    tariffId,
  ]);
  for (let i = 0; i < 101; i++) {
    const sn = `OVL-A-${String(i).padStart(3, '0')}`;
    await insertMeter(db, r.accountId, blockId, { meterSn: sn });
    meterSns.push(sn);
  }
  const [grid] = await db.query<{ id: number }>('SELECT id FROM meters WHERE meter_sn = $1', [meterSns[0]]);
  await insertReadings(db, grid!.id, START, 4, () => ({ import_kwh: 1 }));
  await insertDashboardConfig(db, r.accountId, blockId, { grid: tariffId }, { grid: grid!.id });

  const otherBlock = await insertBuildingBlock(db, r.otherAccountId);
  const otherMeter = await insertMeter(db, r.otherAccountId, otherBlock, { meterSn: 'OVL-B-001' });
  await insertReadings(db, otherMeter, START, 4, () => ({ import_kwh: 1 }));
  otherTariffId = await insertTariff(db, r.otherAccountId);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

const period = { start: START, end: '2025-03-04T00:00:00.000Z' };

const heldPeriod = ownPeriods(period.start, period.end);

function buildingCost(client: typeof r.member.client, accountId = r.accountId, costPeriod = period) {
  return client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, { account_id: accountId, ...costPeriod });
}

function tariffCost(client: typeof r.member.client, accountId: string, tariff: number, meterSn: string) {
  return client.get(`/api/v1/tariffs/${tariff}/cost`, { account_id: accountId, meter_sn: meterSn, ...period });
}

function profile(kind: 'energy' | 'power', buckets: number) {
  return r.member.client.get(`${TIMESERIES}/${kind}-profile`, {
    account_id: r.accountId,
    meter_sn: meterSns[0],
    start: START,
    end: minutesAfterStart(buckets),
    bucket_minutes: 1,
  });
}

function energySums(meters: number) {
  return r.member.client.post(`${TIMESERIES}/energy-sums`, {
    account_id: r.accountId,
    meter_sns: meterSns.slice(0, meters),
    start: START,
    end: period.end,
  });
}

function expectTooMany(reply: Reply) {
  expect({ status: reply.status, body: reply.body, retryAfter: reply.headers['retry-after'] }).toEqual({
    status: 429,
    body: TOO_MANY,
    retryAfter: '1',
  });
}

/** Runs fn while one building cost of the organization is held in flight; returns that request's reply. */
async function whileOneInFlight(fn: () => Promise<void>): Promise<Reply> {
  const held = hold();
  const inFlight = buildingCost(r.member.client, r.accountId, heldPeriod());
  await held.reached;
  try {
    await fn();
  } finally {
    held.release();
  }
  return inFlight;
}

const work = (state: 'running' | 'waiting') => admissionGauge(app, 'ums_expensive_requests', state);
const untilWaiting = async (count: number) => {
  while ((await work('waiting')) !== count) await new Promise((resolve) => setImmediate(resolve));
};

describe('expensive requests per organization (EXPENSIVE_CONCURRENCY_PER_ORG=1)', () => {
  it('holds more of its work while one is in flight, refuses a user past their queue at once, and serves the rest after', async () => {
    let waiting: Promise<Reply>[] = [];
    const first = await whileOneInFlight(async () => {
      // The member's queue (four) fills, and another user of the organization waits too, all for the one in flight.
      waiting = [
        tariffCost(r.member.client, r.accountId, tariffId, meterSns[0]!),
        profile('energy', 2001),
        energySums(101),
        buildingCost(r.member.client, r.accountId, heldPeriod()),
      ];
      await untilWaiting(4);
      waiting.push(buildingCost(r.owner.client));
      await untilWaiting(5);
      expectTooMany(await buildingCost(r.member.client));
      expect(await work('running')).toBe(1);
    });
    expect(first.status).toBe(200);
    expect(first.body.data.sources.find((s: { source: string }) => s.source === 'grid').total).toBe(8);
    const [tariff, energy, sums, ...buildings] = await Promise.all(waiting);
    expect([tariff, energy, sums, ...buildings].map((reply) => reply!.status)).toEqual([200, 200, 200, 200, 200]);
    expect(tariff!.body.data.import_kwh).toBe(4);
    expect(sums!.body.count).toBe(101);
    expect(await work('waiting')).toBe(0);
  });

  it('answers a page of a list and a write of the organization while its expensive work holds its one slot', async () => {
    await whileOneInFlight(async () => {
      const page = await r.member.client.get('/api/v1/meters', { account_id: r.accountId, limit: 2 });
      expect({ status: page.status, count: page.body.data.length }).toEqual({ status: 200, count: 2 });
      const write = await r.admin.client.put(`/api/v1/building_blocks/${blockId}`, {
        account_id: r.accountId,
        description: 'Written while a bill is in flight',
      });
      expect({ status: write.status, description: write.body.data.description }).toEqual({
        status: 200,
        description: 'Written while a bill is in flight',
      });
      expect({ running: await work('running'), waiting: await work('waiting') }).toEqual({ running: 1, waiting: 0 });
    });
  });

  it('admits another organization while one is full, and checks access before admission', async () => {
    await whileOneInFlight(async () => {
      const other = await tariffCost(r.outsider.client, r.otherAccountId, otherTariffId, 'OVL-B-001');
      expect(other.status).toBe(200);
      expect(other.body.data.import_kwh).toBe(4);

      const outsider = await buildingCost(r.outsider.client);
      expect(outsider.status).toBe(403);
      expect(outsider.body).toEqual(FORBIDDEN_NOT_MEMBER);
    });
  });
});

const ingestStores = work;

/**
 * count 30-minute readings of one of the organization's meters (the third by default), from START
 * plus `after` of them.
 */
function ingest(client: typeof r.admin.client, after: number, count: number, meterSn = meterSns[2]) {
  return client.post(`${TIMESERIES}/readings`, {
    account_id: r.accountId,
    meter_sn: meterSn,
    readings: Array.from({ length: count }, (_, i) => ({ ts: minutesAfterStart((after + i) * 30), import_kwh: 1 })),
  });
}

describe('stores of ingests, as the organization’s work', () => {
  // On PostgreSQL only: the embedded database runs one transaction at a time, so the second ingest
  // would wait for the held one's connection before it reached its turn. Each of another meter: a
  // store of the same meter waits for the meter's earlier one before its turn (meter-stores.test.ts).
  it.runIf(onPostgres)(
    'run one at a time in the organization: another user’s waits for the one in flight, then both are stored',
    async () => {
      const held = hold();
      const first = ingest(r.admin.client, 0, 2001);
      await held.reached;
      let second: ReturnType<typeof ingest>;
      try {
        second = ingest(r.owner.client, 2001, 2001, meterSns[3]);
        while ((await ingestStores('waiting')) !== 1) await new Promise((resolve) => setImmediate(resolve));
        expect(await ingestStores('running')).toBe(1);
      } finally {
        held.release();
      }
      for (const reply of [await first, await second]) {
        expect({ status: reply.status, data: reply.body.data }).toEqual({
          status: 200,
          data: { inserted: 2001, updated: 0 },
        });
      }
      expect({ running: await ingestStores('running'), waiting: await ingestStores('waiting') }).toEqual({
        running: 0,
        waiting: 0,
      });
    },
  );

  it.runIf(onPostgres)('do not store a batch whose client went away while it waited for its turn', async () => {
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const held = hold();
    const first = ingest(r.admin.client, 10_000, 2001);
    await held.reached;
    try {
      const clientGone = new AbortController();
      const abandoned = fetch(`${base}${TIMESERIES}/readings`, {
        method: 'POST',
        signal: clientGone.signal,
        headers: { authorization: `Bearer ${r.owner.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          account_id: r.accountId,
          meter_sn: meterSns[3],
          readings: Array.from({ length: 2001 }, (_, i) => ({
            ts: minutesAfterStart((20_000 + i) * 30),
            import_kwh: 1,
          })),
        }),
      }).catch((error: unknown) => error);
      while ((await ingestStores('waiting')) !== 1) await new Promise((resolve) => setImmediate(resolve));
      clientGone.abort();
      expect(await abandoned).toMatchObject({ name: 'AbortError' });
      // The server sees the connection close in its own time, and takes the batch out of the queue
      // while the first store still holds the organization's slot. (Not a count of connections:
      // fetch may open another, idle one as the aborted one closes.)
      while ((await ingestStores('waiting')) !== 0) await new Promise((resolve) => setImmediate(resolve));
      expect(await ingestStores('running')).toBe(1);
    } finally {
      held.release();
    }
    expect((await first).status).toBe(200);
    // Had the abandoned batch kept its place, it would be stored now, after the first.
    while ((await ingestStores('running')) + (await ingestStores('waiting')) !== 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const stored = async (meterSn: string | undefined, from: number) => {
      const [row] = await database.db.query<{ count: number }>(
        `SELECT count(*)::int AS count FROM readings r JOIN meters m ON m.id = r.meter_id
          WHERE m.meter_sn = $1 AND ts >= $2 AND ts < $3`,
        [meterSn, minutesAfterStart(from * 30), minutesAfterStart((from + 2001) * 30)],
      );
      return row!.count;
    };
    expect({ first: await stored(meterSns[2], 10_000), abandoned: await stored(meterSns[3], 20_000) }).toEqual({
      first: 2001,
      abandoned: 0,
    });
  });
});
