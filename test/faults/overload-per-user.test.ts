import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import type { App } from '../../src/http/types.ts';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { addMember, createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import type { Reply } from '../helpers/http.ts';
import { ownPeriods } from '../helpers/own-periods.ts';
import { checkResponses } from '../helpers/response-schemas.ts';
import { insertPricedBuilding } from '../helpers/sql-fixtures.ts';
import { GAUGES_READ_FREELY, NO_SHEDDING, TEST_PASSWORD_HASHING, TEST_SIGNING_KEYS } from '../helpers/test-app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const START = '2025-03-03T00:00:00.000Z';
/** A period of its own for each cost: a kept bill would not reach the held readings query. */
const periodOfItsOwn = ownPeriods(START, '2025-03-04T00:00:00.000Z');

let database: TestDatabase;
let app: App;
let hold: ReturnType<typeof holdable>['hold'];
/** One user with three organizations, each a building whose grid is priced; another user, member of the third. */
let flooder: TestUser;
let neighbour: TestUser;
const organizations: { accountId: string; blockId: number }[] = [];

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
    EXPENSIVE_CONCURRENCY_PER_ORG: '4',
    EXPENSIVE_CONCURRENCY_PER_USER: '2',
    EXPENSIVE_CONCURRENCY_TOTAL: '8',
    // Every request reads readings, where the held database holds it (holdable-database.ts).
    KEPT_MONTHS_BYTES: '0',
  });
  app = await buildApp({ config, db: holding.db, keys: TEST_SIGNING_KEYS, passwordHashing: TEST_PASSWORD_HASHING });
  checkResponses(app);
  await app.ready();
  [flooder, neighbour] = await Promise.all([registerUser(app, 'flooder'), registerUser(app, 'neighbour')]);
  const db = database.db;
  for (let i = 0; i < 3; i++) {
    const accountId = await createOrganization(flooder, `Org ${i}`);
    const { blockId } = await insertPricedBuilding(db, accountId, `PER-USER-${i}`, START);
    organizations.push({ accountId, blockId });
  }
  await addMember(flooder, organizations[2]!.accountId, neighbour, 'MEMBER');
}, 120_000);

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

function buildingCost(user: TestUser, organization: number) {
  const { accountId, blockId } = organizations[organization]!;
  return user.client.get(`/api/v1/building_blocks/${blockId}/energy-cost`, {
    account_id: accountId,
    ...periodOfItsOwn(),
  });
}

/** Sends a building cost of user in the organization and waits until it is in flight, holding its slots. */
async function inFlight(user: TestUser, organization: number) {
  const held = hold();
  const reply = buildingCost(user, organization);
  await held.reached;
  return { reply, release: held.release };
}

const gridTotal = (reply: Reply) => reply.body.data.sources.find((s: { source: string }) => s.source === 'grid').total;

describe('expensive requests per user (EXPENSIVE_CONCURRENCY_PER_USER=2, per organization 4)', () => {
  it('holds the work of a user past their limit in an organization with free slots, and serves another user there first', async () => {
    const first = await inFlight(flooder, 0);
    const second = await inFlight(flooder, 1);
    let third: Promise<Reply>;
    try {
      third = buildingCost(flooder, 2);
      while ((await admissionGauge(app, 'ums_expensive_requests', 'waiting')) !== 1) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      const neighbours = await buildingCost(neighbour, 2);
      expect(neighbours.status).toBe(200);
      expect(gridTotal(neighbours)).toBe(8);
      expect(await admissionGauge(app, 'ums_expensive_requests', 'waiting')).toBe(1);
    } finally {
      first.release();
      second.release();
    }
    for (const reply of await Promise.all([first.reply, second.reply, third])) {
      expect(reply.status).toBe(200);
      expect(gridTotal(reply)).toBe(8);
    }
  });
});
