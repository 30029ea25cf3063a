import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { failure } from '../helpers/envelopes.ts';
import { addMember, createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import type { Reply } from '../helpers/http.ts';
import { ownPeriods } from '../helpers/own-periods.ts';
import { insertPricedBuilding } from '../helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const START = '2025-03-03T00:00:00.000Z';
const periodOfItsOwn = ownPeriods(START, '2025-03-04T00:00:00.000Z');
const QUEUE_FULL = failure('Too many requests', 'Too many requests of yours waiting; retry shortly');

interface Building {
  accountId: string;
  blockId: number;
  meterSn: string;
}

/**
 * A service whose database can hold the next readings query (holdable-database.ts), with one
 * priced building per user (8.00 a day).
 */
function heldService(env: Record<string, string>, users: string[]) {
  const s = {} as { t: TestApp; hold: ReturnType<typeof holdable>['hold']; users: Map<string, TestUser & Building> };
  beforeAll(async () => {
    s.t = await startTestApp(
      { KEPT_MONTHS_BYTES: '0', ...env },
      {
        serveFrom: (db) => {
          const holding = holdable(db);
          s.hold = holding.hold;
          return holding.db;
        },
      },
    );
    s.users = new Map();
    for (const name of users) {
      const user = await registerUser(s.t.app, name);
      const accountId = await createOrganization(user, name);
      const meterSn = `POLICY-${name}`;
      const { blockId } = await insertPricedBuilding(s.t.db, accountId, meterSn, START);
      s.users.set(name, { ...user, accountId, blockId, meterSn });
    }
  }, 120_000);
  afterAll(async () => s.t?.close());

  const user = (name: string) => s.users.get(name)!;
  const buildingCost = (name: string) =>
    user(name).client.get(`/api/v1/building_blocks/${user(name).blockId}/energy-cost`, {
      account_id: user(name).accountId,
      ...periodOfItsOwn(),
    });
  /** A building cost of the user's, in flight until released: it holds its slot. */
  async function inFlight(name: string) {
    const held = s.hold();
    const reply = buildingCost(name);
    await held.reached;
    return { reply, release: held.release };
  }
  const untilWaiting = async (count: number) => {
    while ((await admissionGauge(s.t.app, 'ums_expensive_requests', 'waiting')) !== count) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { s, user, buildingCost, inFlight, untilWaiting };
}

const gridTotal = (reply: Reply) => reply.body.data.sources.find((s: { source: string }) => s.source === 'grid').total;

describe('a computed result shared between users', () => {
  // A user runs one piece of work at once and has two more waiting at most.
  const { user, inFlight, buildingCost, untilWaiting } = heldService(
    { EXPENSIVE_CONCURRENCY_PER_USER: '1', EXPENSIVE_CONCURRENCY_TOTAL: '4' },
    ['flooder', 'neighbour'],
  );

  it('refuses the user at their limit alone: another user asking for the same profile at once gets it', async () => {
    const held = await inFlight('flooder');
    const queued = [buildingCost('flooder'), buildingCost('flooder')];
    await untilWaiting(2);
    // Both ask for the profile of the neighbour's meter, which the flooder may read too.
    const neighbour = user('neighbour');
    await addMember(neighbour, neighbour.accountId, user('flooder'), 'MEMBER');
    const query = {
      account_id: neighbour.accountId,
      meter_sn: neighbour.meterSn,
      start: START,
      end: '2025-03-03T02:00:00.000Z',
      bucket_minutes: 30,
    };
    const path = '/api/v1/timeseries/electricity/energy-profile';
    const [flooders, neighbours] = await Promise.all([
      user('flooder').client.get(path, query),
      neighbour.client.get(path, query),
    ]);
    expect({ status: flooders.status, body: flooders.body, retryAfter: flooders.headers['retry-after'] }).toEqual({
      status: 429,
      body: QUEUE_FULL,
      retryAfter: '1',
    });
    expect(neighbours.status).toBe(200);
    expect(neighbours.body.data.map((point: { import_kwh: number }) => point.import_kwh)).toEqual([1, 1, 1, 1]);
    held.release();
    for (const reply of [await held.reply, ...(await Promise.all(queued))]) expect(gridTotal(reply)).toBe(8);
  });
});

describe('one deadline per request (REQUEST_DEADLINE_S=1)', () => {
  const { inFlight, buildingCost, untilWaiting } = heldService(
    { EXPENSIVE_CONCURRENCY_PER_ORG: '1', REQUEST_DEADLINE_S: '1' },
    ['waiter'],
  );

  it('answers 503 with Retry-After to work still waiting at its deadline, and leaves its queue', async () => {
    const held = await inFlight('waiter');
    try {
      const late = buildingCost('waiter');
      await untilWaiting(1);
      const reply = await late;
      expect({ status: reply.status, body: reply.body, retryAfter: reply.headers['retry-after'] }).toEqual({
        status: 503,
        body: failure('Service unavailable', "No answer within the request's deadline of 1 s; retry shortly"),
        retryAfter: '1',
      });
      await untilWaiting(0);
    } finally {
      held.release();
    }
    // Work already running ends as it would: the deadline ends waits and steps, and the database's
    // statement timeout a query.
    expect(gridTotal(await held.reply)).toBe(8);
  });
});

describe('requests whose client has gone before their turn', () => {
  const { s, user } = heldService({ REQUESTS_PER_USER: '1' }, ['leaver']);

  it('take none of their user’s request slots for good', async () => {
    const base = await s.t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(base);
    const leaver = user('leaver');
    for (let i = 0; i < 10; i++) {
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `GET /api/v1/meters?account_id=${leaver.accountId} HTTP/1.1\r\nhost: 127.0.0.1\r\nauthorization: Bearer ${leaver.token}\r\n\r\n`,
      );
      socket.destroy();
    }
    while ((await admissionGauge(s.t.app, 'ums_requests_in_flight', 'running')) !== 0) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const reply = await leaver.client.get('/api/v1/meters', { account_id: leaver.accountId });
    expect(reply.status).toBe(200);
    expect(reply.body.data.map((meter: { meter_sn: string }) => meter.meter_sn)).toEqual(['POLICY-leaver']);
  });
});

describe('refusals limited per client address (REFUSALS_PER_MIN=3)', () => {
  const { s, user } = heldService({ REFUSALS_PER_MIN: '3' }, ['signed-in']);
  const tooMany = failure('Too many requests', 'Too many refused requests from this address; retry later');

  it('answers 429 with Retry-After past three 401s or 404s a minute from one address, and serves other addresses', async () => {
    const from = (remoteAddress: string, url: string, token = 'not-a-token') =>
      s.t.app.inject({ method: 'GET', url, remoteAddress, headers: { authorization: `Bearer ${token}` } });
    expect((await from('10.1.1.1', '/api/v1/meters')).statusCode).toBe(401);
    expect((await from('10.1.1.1', '/api/v1/nothing-here')).statusCode).toBe(404);
    expect((await from('10.1.1.1', '/api/v1/meters')).statusCode).toBe(401);
    for (const url of ['/api/v1/meters', '/api/v1/nothing-here']) {
      const refused = await from('10.1.1.1', url);
      expect({ status: refused.statusCode, body: refused.json() }).toEqual({ status: 429, body: tooMany });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    const signedIn = user('signed-in');
    const other = await from('10.1.1.2', `/api/v1/meters?account_id=${signedIn.accountId}`, signedIn.token);
    expect(other.statusCode).toBe(200);
    expect((await from('10.1.1.2', '/api/v1/meters')).statusCode).toBe(401);
  });
});
