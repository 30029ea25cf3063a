import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockBody } from '../../test/helpers/building-factories.ts';
import { addMember, createOrganization, registerUser, type TestUser } from '../../test/helpers/factories.ts';
import type { Client, Reply } from '../../test/helpers/http.ts';
import { countViolations, onPostgres } from '../../test/helpers/races.ts';
import { secondProcess } from '../../test/helpers/second-process.ts';
import { insertBuildingBlock, insertTariff, insertTransition } from '../../test/helpers/sql-fixtures.ts';
import { tariffBody } from '../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';

/** Clients of the removed member writing at once on the other process. */
const WRITERS = 3;
/** Writes each of them starts after the removal's answer. */
const WRITES_AFTER = 3;

let t: TestApp;
let owner: TestUser;
let admin: TestUser;
let accountId: string;
let blockId: number;
let parentId: number;
let tariffId: number;
let predecessorId: number;
beforeAll(async () => {
  t = await startTestApp();
  [owner, admin] = await Promise.all([registerUser(t.app, 'owner'), registerUser(t.app, 'admin')]);
  accountId = await createOrganization(owner);
  blockId = await insertBuildingBlock(t.db, accountId);
  parentId = await insertBuildingBlock(t.db, accountId, 'Parent');
  tariffId = await insertTariff(t.db, accountId);
  predecessorId = await insertTariff(t.db, accountId, 'Predecessor');
  await insertTransition(t.db, accountId, predecessorId, tariffId, '2029-01-01T00:00:00Z');
});
afterAll(async () => t.close());

const KINDS = 7;

/** Writes of different services (KINDS of them), by the n-th request of a writer. */
function write(client: Client, n: number): Promise<Reply> {
  switch (n % KINDS) {
    case 0:
      return client.post('/api/v1/building_blocks', blockBody(accountId, { name: `Block ${n}` }));
    case 1:
      return client.put(`/api/v1/building_blocks/${blockId}`, { account_id: accountId, name: `Renamed ${n}` });
    case 2:
      return client.post('/api/v1/tariffs', tariffBody(accountId, { name: `Tariff ${n}` }));
    case 3:
      return client.put(`/api/v1/tariffs/${tariffId}`, { account_id: accountId, tax_rate: n % 100 });
    case 4:
      // A move in the hierarchy: the organization's row is locked for it.
      return client.put(`/api/v1/building_blocks/${blockId}`, { account_id: accountId, parent_id: parentId });
    case 5:
      // A transition's change locks the organization's row for its chains.
      return client.put(`/api/v1/tariffs/${predecessorId}/transitions`, { account_id: accountId, notes: `Note ${n}` });
    default:
      return client.put(`/api/v1/organizations/${accountId}`, { name: `Organization ${n}` });
  }
}

const ACCEPTED = [200, 201];

describe.runIf(onPostgres)('an ADMIN removed on one process, writing on another', () => {
  let other: Awaited<ReturnType<typeof secondProcess>>;
  beforeAll(async () => {
    other = await secondProcess(t.databaseUrl!, admin);
  });
  afterAll(async () => other?.close());

  it('has no write accepted after the removal answered', async () => {
    const accepted: string[] = [];
    const unexpected: string[] = [];
    // Every kind of write is accepted from the ADMIN while a member, on the other process too.
    await addMember(owner, accountId, admin, 'ADMIN');
    const kinds = await Promise.all(Array.from({ length: KINDS }, (_, n) => write(other.client, n)));
    expect(kinds.map((reply) => reply.status)).toEqual([201, 200, 201, 200, 200, 200, 200]);
    await owner.client.delete(`/api/v1/organizations/${accountId}/members/${admin.id}`);

    const violations = await countViolations(async (round) => {
      await addMember(owner, accountId, admin, 'ADMIN');
      // The other process sees the membership (its notice arrives), as the removed member would have.
      for (let n = 0; !ACCEPTED.includes((await write(other.client, n)).status); n++) {
        if (n > 1000) throw new Error('the other process never let the new ADMIN write');
      }

      let removedAt = Number.POSITIVE_INFINITY;
      let removing = true;
      const writers = Array.from({ length: WRITERS }, async (_, w) => {
        let after = 0;
        for (let n = w; removing || after < WRITES_AFTER; n += WRITERS) {
          const startedAt = performance.now();
          const reply = await write(other.client, n);
          if (startedAt <= removedAt) continue;
          after++;
          if (ACCEPTED.includes(reply.status)) accepted.push(`round ${round}: write ${n % KINDS} ${reply.status}`);
          else if (reply.status !== 403) unexpected.push(`round ${round}: ${reply.status} ${reply.body.error}`);
        }
      });
      const removal = await owner.client.delete(`/api/v1/organizations/${accountId}/members/${admin.id}`);
      removedAt = performance.now();
      removing = false;
      await Promise.all(writers);
      expect(removal.status).toBe(204);
      return accepted.some((line) => line.startsWith(`round ${round}:`));
    });
    expect(accepted).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(violations).toBe(0);
  }, 600_000);
});
