import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESERVE_IDLE_MS } from '../../src/http/admission.ts';
import type { App } from '../../src/http/types.ts';
import { failure } from '../helpers/envelopes.ts';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import type { Reply } from '../helpers/http.ts';
import { ownPeriods } from '../helpers/own-periods.ts';
import {
  insertBuildingBlock,
  insertDashboardConfig,
  insertMeter,
  insertReadings,
  insertTariff,
} from '../helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const TOO_MANY_ON_THIS_SERVER = failure(
  'Too many requests',
  'Too many expensive requests on this server at once; retry shortly',
);
const START = '2025-03-03T00:00:00.000Z';
/** A period of its own for each cost: a kept bill would not reach the held readings query. */
const periodOfItsOwn = ownPeriods(START, '2025-03-04T00:00:00.000Z');

/**
 * A service running at most 2 expensive requests at once (per user 8, per organization 4; past the
 * total, a user seen before and idle for RESERVE_IDLE_MS may start one, up to 2 more), with a flooder who owns
 * three organizations and a neighbour who owns one, each a building whose grid is priced (8.00 a
 * day).
 */
function serviceWithTwoSlots(waitMs: number) {
  const service = {} as {
    t: TestApp;
    app: App;
    hold: ReturnType<typeof holdable>['hold'];
    flooder: TestUser;
    neighbour: TestUser;
    organizations: Map<TestUser, { accountId: string; blockId: number }[]>;
  };
  beforeAll(async () => {
    service.t = await startTestApp(
      {
        EXPENSIVE_CONCURRENCY_PER_ORG: '4',
        EXPENSIVE_CONCURRENCY_PER_USER: '8',
        EXPENSIVE_CONCURRENCY_TOTAL: '2',
        EXPENSIVE_WAIT_MS: String(waitMs),
        // Every request reads readings, where the held database holds it (holdable-database.ts).
        KEPT_MONTHS_BYTES: '0',
      },
      {
        serveFrom: (db) => {
          const holding = holdable(db);
          service.hold = holding.hold;
          return holding.db;
        },
      },
    );
    service.app = service.t.app;
    const [flooder, neighbour] = await Promise.all([
      registerUser(service.app, 'flooder'),
      registerUser(service.app, 'neighbour'),
    ]);
    Object.assign(service, { flooder, neighbour, organizations: new Map() });
    const db = service.t.db;
    for (const [owner, count] of [
      [flooder, 3],
      [neighbour, 1],
    ] as const) {
      const owned: { accountId: string; blockId: number }[] = [];
      for (let i = 0; i < count; i++) {
        const accountId = await createOrganization(owner, `Org ${i}`);
        const blockId = await insertBuildingBlock(db, accountId);
        const tariffId = await insertTariff(db, accountId);
        await db.query(`INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 2)`, [
          tariffId,
        ]);
        const meterId = await insertMeter(db, accountId, blockId, { meterSn: `FAIR-${owned.length}-${owner.email}` });
        await insertReadings(db, meterId, START, 4, () => ({ import_kwh: 1 }));
        await insertDashboardConfig(db, accountId, blockId, { grid: tariffId }, { grid: meterId });
        owned.push({ accountId, blockId });
      }
      service.organizations.set(owner, owned);
    }
    // The reserve is for users seen before: a building cost of the neighbour's ran to its end, and
    // they have been idle since.
    expect((await buildingCost(neighbour, 0)).status).toBe(200);
    service.t.clock.advance(RESERVE_IDLE_MS / 1000);
  }, 120_000);
  afterAll(async () => service.t?.close());

  function buildingCost(user: TestUser, organization: number) {
    const { accountId, blockId } = service.organizations.get(user)![organization]!;
    return user.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, {
      account_id: accountId,
      ...periodOfItsOwn(),
    });
  }

  /** Sends a building cost of user in the organization and waits until it is in flight, holding its slots. */
  async function inFlight(user: TestUser, organization: number) {
    const held = service.hold();
    const reply = buildingCost(user, organization);
    await held.reached;
    return { reply, release: held.release };
  }

  /** The expensive requests waiting for a slot, from /metrics. */
  async function waitingRequests(): Promise<number> {
    const metrics = await service.app.inject({ method: 'GET', url: '/metrics' });
    return Number(/^ums_expensive_requests\{state="waiting"\} (\d+)$/m.exec(metrics.body)?.[1]);
  }

  /** Resolves once `count` expensive requests wait for a slot. */
  async function untilWaiting(count: number): Promise<void> {
    while ((await waitingRequests()) !== count) await new Promise((resolve) => setImmediate(resolve));
  }

  return { service, buildingCost, inFlight, untilWaiting, waitingRequests };
}

const gridTotal = (reply: Reply) => reply.body.data.sources.find((s: { source: string }) => s.source === 'grid').total;

describe('expensive requests over the process (EXPENSIVE_CONCURRENCY_TOTAL=2), without waiting', () => {
  const { service, buildingCost, inFlight } = serviceWithTwoSlots(0);

  it('answers 429 with Retry-After to a user who runs one once the process runs its total; a user who runs none starts from the reserve', async () => {
    const { flooder, neighbour } = service;
    const first = await inFlight(flooder, 0);
    const second = await inFlight(flooder, 1);
    let neighbourHeld: Awaited<ReturnType<typeof inFlight>> | undefined;
    try {
      const refusal = async (reply: Promise<Reply>) => {
        const refused = await reply;
        return { status: refused.status, body: refused.body, retryAfter: refused.headers['retry-after'] };
      };
      const expected = { status: 429, body: TOO_MANY_ON_THIS_SERVER, retryAfter: '1' };
      expect(await refusal(buildingCost(flooder, 2))).toEqual(expected);
      // The neighbour runs none: their request starts past the total, at once.
      const neighbours = await buildingCost(neighbour, 0);
      expect(neighbours.status).toBe(200);
      expect(gridTotal(neighbours)).toBe(8);
      // Idle long enough, the neighbour starts another from the reserve; while it runs, their next
      // is past the total like the flooder's.
      service.t.clock.advance(RESERVE_IDLE_MS / 1000);
      neighbourHeld = await inFlight(neighbour, 0);
      expect(await refusal(buildingCost(neighbour, 0))).toEqual(expected);
      first.release();
      second.release();
      expect((await first.reply).status).toBe(200);
      expect((await second.reply).status).toBe(200);
      const flooders = await buildingCost(flooder, 2);
      expect(flooders.status).toBe(200);
      expect(gridTotal(flooders)).toBe(8);
    } finally {
      first.release();
      second.release();
      neighbourHeld?.release();
    }
    expect((await neighbourHeld!.reply).status).toBe(200);
  });
});

describe('expensive requests over the process (EXPENSIVE_CONCURRENCY_TOTAL=2), handed over fairly', () => {
  const { service, buildingCost, inFlight, untilWaiting, waitingRequests } = serviceWithTwoSlots(60_000);

  it('starts the neighbour’s request, who runs nothing, at once while the flooder’s request that came first waits', async () => {
    const { flooder, neighbour } = service;
    const first = await inFlight(flooder, 0);
    const second = await inFlight(flooder, 1);
    const flooders = buildingCost(flooder, 2);
    await untilWaiting(1);
    const neighbours = await buildingCost(neighbour, 0);
    expect(neighbours.status).toBe(200);
    expect(gridTotal(neighbours)).toBe(8);
    // The flooder's request still waits for one of its own two to end.
    expect(await waitingRequests()).toBe(1);
    first.release();
    second.release();
    for (const reply of [await first.reply, await second.reply, await flooders]) {
      expect(reply.status).toBe(200);
      expect(gridTotal(reply)).toBe(8);
    }
  });
});
