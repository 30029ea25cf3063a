import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { organizationWithRoles } from '../helpers/factories.ts';
import { holdable } from '../helpers/holdable-database.ts';
import type { Reply } from '../helpers/http.ts';
import { onPostgres } from '../helpers/races.ts';
import { insertBuildingBlock, insertMeter } from '../helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let hold: ReturnType<typeof holdable>['hold'];
let r: Awaited<ReturnType<typeof organizationWithRoles>>;
/** Transactions of the app begun and not yet ended, and the most there were at once. */
const transactions = { open: 0, most: 0 };
/** How many times the meters of a readings body were looked up. */
let meterLookups = 0;

/** The work of the scheduler running or waiting: stores, here. */
async function smallStores(state: 'running' | 'waiting'): Promise<number> {
  return admissionGauge(t.app, 'ums_expensive_requests', state);
}

const body = (hour: number, meterSn = 'ONE-AT-A-TIME') => ({
  account_id: r.accountId,
  meter_sn: meterSn,
  readings: [{ ts: `2025-03-05T${String(hour).padStart(2, '0')}:00:00.000Z`, import_kwh: 3 }],
});

// On the embedded database one transaction runs at a time, and the second body's queries wait for
// the first's anyway: only PostgreSQL would begin the second store at once.
describe.runIf(onPostgres)("a meter's stores one after the other in the process (PostgreSQL)", () => {
  beforeAll(async () => {
    t = await startTestApp(
      { KEPT_MONTHS_BYTES: '0', REQUESTS_PER_USER: '10' },
      {
        serveFrom: (db) => {
          const holding = holdable(db);
          hold = holding.hold;
          return {
            ...holding.db,
            query: (text, params, options) => {
              if (/FROM meters WHERE meter_sn = ANY/.test(text)) meterLookups++;
              return holding.db.query(text, params, options);
            },
            transaction: async (fn) => {
              transactions.most = Math.max(transactions.most, ++transactions.open);
              try {
                return await holding.db.transaction(fn);
              } finally {
                transactions.open--;
              }
            },
          };
        },
      },
    );
    r = await organizationWithRoles(t.app);
    const blockId = await insertBuildingBlock(t.db, r.accountId);
    await insertMeter(t.db, r.accountId, blockId, { meterSn: 'ONE-AT-A-TIME' });
    for (const n of [1, 2, 3, 4, 5]) await insertMeter(t.db, r.accountId, blockId, { meterSn: `SMALL-${n}` });
  }, 120_000);

  afterAll(async () => t?.close());

  it("begins a second store of the meter's readings only after the first ended, holding no transaction meanwhile", async () => {
    transactions.most = 0;
    const held = hold();
    const first = r.admin.client.post('/api/v1/timeseries/electricity/readings', body(1));
    await held.reached;
    const lookups = meterLookups;
    const second = r.owner.client.post('/api/v1/timeseries/electricity/readings', body(2));
    // The second body is read, checked and its meter found; what comes next is its store. Rounds of
    // the event loop, not time, for it to begin a transaction if it would.
    while (meterLookups === lookups) await new Promise((resolve) => setImmediate(resolve));
    for (let round = 0; round < 50; round++) await new Promise((resolve) => setImmediate(resolve));
    expect(transactions.open).toBe(1);

    held.release();
    const answers = await Promise.all([first, second]);
    expect(answers.map((answer) => [answer.status, answer.body.data])).toEqual([
      [200, { inserted: 1, updated: 0 }],
      [200, { inserted: 1, updated: 0 }],
    ]);
    expect(transactions).toEqual({ open: 0, most: 1 });
  });

  it('stores four batches of other meters of one organization at once (its cap), and the fifth when one has ended', async () => {
    const holds: ReturnType<typeof hold>[] = [];
    const posts: Promise<Reply>[] = [];
    for (const n of [1, 2, 3, 4]) {
      const held = hold();
      posts.push(r.admin.client.post('/api/v1/timeseries/electricity/readings', body(n, `SMALL-${n}`)));
      await held.reached;
      holds.push(held);
    }
    posts.push(r.admin.client.post('/api/v1/timeseries/electricity/readings', body(5, 'SMALL-5')));
    while ((await smallStores('waiting')) !== 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await smallStores('running')).toBe(4);

    for (const held of holds) held.release();
    const answers = await Promise.all(posts);
    expect(answers.map((answer) => [answer.status, answer.body.data])).toEqual(
      Array.from({ length: 5 }, () => [200, { inserted: 1, updated: 0 }]),
    );
    expect([await smallStores('running'), await smallStores('waiting')]).toEqual([0, 0]);
  });
});
