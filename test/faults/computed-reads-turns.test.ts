import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESERVE_IDLE_MS } from '../../src/http/admission.ts';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import { ownPeriods } from '../helpers/own-periods.ts';
import { insertBuildingBlock, insertMeter, insertReadings } from '../helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const START = '2025-03-03T00:00:00.000Z';
/** A period of its own for each profile: a kept profile would not reach the held readings query. */
const periodOfItsOwn = ownPeriods(START, '2025-03-04T00:00:00.000Z');

/**
 * Profiles below the expensive sizes, computed: with one slot for the whole process
 * (EXPENSIVE_CONCURRENCY_TOTAL=1) and no wait for expensive requests (EXPENSIVE_WAIT_MS=0), a
 * flooder's second profile waits for their first instead of being refused, while a neighbour seen
 * before who asks for one thing at a time starts at once.
 */
describe('computed profiles below the expensive sizes take turns among users', () => {
  const service = {} as {
    t: TestApp;
    hold: ReturnType<typeof holdable>['hold'];
    users: Map<TestUser, { accountId: string; meterSn: string }>;
  };
  beforeAll(async () => {
    service.t = await startTestApp(
      // Every request reads readings, where the held database holds it (holdable-database.ts).
      { EXPENSIVE_CONCURRENCY_TOTAL: '1', EXPENSIVE_WAIT_MS: '0', KEPT_MONTHS_BYTES: '0' },
      {
        serveFrom: (db) => {
          const holding = holdable(db);
          service.hold = holding.hold;
          return holding.db;
        },
      },
    );
    service.users = new Map();
    const { app, db } = service.t;
    for (const name of ['flooder', 'neighbour']) {
      const user = await registerUser(app, name);
      const accountId = await createOrganization(user, `${name} Org`);
      const blockId = await insertBuildingBlock(db, accountId);
      const meterSn = `TURNS-${name}`;
      const meterId = await insertMeter(db, accountId, blockId, { meterSn });
      await insertReadings(db, meterId, START, 4, () => ({ import_kwh: 1 }));
      service.users.set(user, { accountId, meterSn });
    }
    // The reserve is for users seen before: a profile of the neighbour's ran to its end, and they
    // have been idle since.
    expect((await profile(user('neighbour'))).status).toBe(200);
    service.t.clock.advance(RESERVE_IDLE_MS / 1000);
  }, 120_000);
  afterAll(async () => service.t?.close());

  const user = (name: string) => [...service.users.keys()].find((u) => u.email.startsWith(name))!;

  function profile(who: TestUser) {
    const { accountId, meterSn } = service.users.get(who)!;
    return who.client.get('/api/v1/timeseries/electricity/energy-profile', {
      account_id: accountId,
      meter_sn: meterSn,
      bucket_minutes: 30,
      ...periodOfItsOwn(),
    });
  }

  async function computedReads(state: 'running' | 'waiting'): Promise<number> {
    return admissionGauge(service.t.app, 'ums_computed_reads', state);
  }

  it('queues the flooder’s second profile behind their first and starts the neighbour’s at once', async () => {
    const [flooder, neighbour] = [user('flooder'), user('neighbour')];
    const held = service.hold();
    const first = profile(flooder);
    await held.reached;
    try {
      const second = profile(flooder);
      while ((await computedReads('waiting')) !== 1) await new Promise((resolve) => setImmediate(resolve));
      const neighbours = await profile(neighbour);
      expect(neighbours.status).toBe(200);
      expect(neighbours.body.data.map((p: { import_kwh: number }) => p.import_kwh)).toEqual([1, 1, 1, 1]);
      // The flooder's second still waits for their first: not refused, though expensive requests would be.
      expect({ running: await computedReads('running'), waiting: await computedReads('waiting') }).toEqual({
        running: 1,
        waiting: 1,
      });
      held.release();
      for (const reply of [await first, await second]) {
        expect(reply.status).toBe(200);
        expect(reply.body.data.map((p: { import_kwh: number }) => p.import_kwh)).toEqual([1, 1, 1, 1]);
      }
    } finally {
      held.release();
    }
    expect({ running: await computedReads('running'), waiting: await computedReads('waiting') }).toEqual({
      running: 0,
      waiting: 0,
    });
  });
});
