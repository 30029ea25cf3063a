import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflict, invalid, notFound } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import { insertMeter, insertTariff, insertTransition } from '../../../test/helpers/sql-fixtures.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

const url = (tariffId: number) => `/api/v1/tariffs/${tariffId}/transitions`;
const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000);
const CYCLE = invalid('successor_id: The transition would form a cycle back to the predecessor');

describe.runIf(onPostgres)('transition rules under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  let blockId: number;
  beforeAll(async () => {
    ({ t, owner, accountId, blockId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  const create = (pred: number, succ: number, effectiveFrom = hourAgo()) =>
    owner.client.post(url(pred), { account_id: accountId, successor_id: succ, effective_from: effectiveFrom });
  const tariffs = (n: number) => Promise.all(Array.from({ length: n }, () => insertTariff(t.db, accountId)));

  async function transitionsFrom(ids: number[]) {
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM tariff_transitions WHERE predecessor_id = ANY($1::int[])',
      [ids],
    );
    return row!.n;
  }

  /** One of two creates that together would close a cycle is 201, the other 400 naming the cycle. */
  function oneCreatedOtherCycle(replies: Reply[]) {
    const created = replies.filter((r) => r.status === 201);
    const refused = replies.filter((r) => r.status !== 201);
    return created.length === 1 && refused.length === 1 && same(refused[0]!.body, CYCLE);
  }

  it('creates only one of X→Y and Y→X sent together; the other is 400 (cycle) and is not applied', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const [x, y] = (await tariffs(2)) as [number, number];
      const meter = await insertMeter(t.db, accountId, blockId, { tariffId: x });
      const replies = await Promise.all([create(x, y), create(y, x)]);
      if (!oneCreatedOtherCycle(replies)) wrongAnswers.push(replies.map(summary));
      const [row] = await t.db.query<{ tariff_id: number }>('SELECT tariff_id FROM meters WHERE id = $1', [meter]);
      // X→Y alone moves the meter to Y; Y→X alone leaves it on X (it was not on Y).
      const expected = replies[0]!.status === 201 ? y : x;
      if (row!.tariff_id !== expected) wrongAnswers.push(`meter on ${row!.tariff_id}, expected ${expected}`);
      return (await transitionsFrom([x, y])) > 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('creates only one of A→B and C→D sent together when B→C and D→A exist (a cycle of four)', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const [a, b, c, d] = (await tariffs(4)) as [number, number, number, number];
      await insertTransition(t.db, accountId, b, c, inAMonth());
      await insertTransition(t.db, accountId, d, a, inAMonth());
      const future = inAMonth().toISOString();
      const replies = await Promise.all([create(a, b, future), create(c, d, future)]);
      if (!oneCreatedOtherCycle(replies)) wrongAnswers.push(replies.map(summary));
      return (await transitionsFrom([a, b, c, d])) > 3;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('accepts only one of an update X→Y (was X→Z) and a create Y→X sent together', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const [x, y, z] = (await tariffs(3)) as [number, number, number];
      await insertTransition(t.db, accountId, x, z, inAMonth());
      const replies = await Promise.all([
        owner.client.put(url(x), { account_id: accountId, successor_id: y }),
        create(y, x, inAMonth().toISOString()),
      ]);
      const accepted = replies.filter((r) => r.status === 200 || r.status === 201);
      const refused = replies.filter((r) => r.status !== 200 && r.status !== 201);
      if (accepted.length !== 1 || !same(refused[0]?.body, CYCLE)) wrongAnswers.push(replies.map(summary));
      const [row] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tariff_transitions
         WHERE (predecessor_id = $1 AND successor_id = $2) OR (predecessor_id = $2 AND successor_id = $1)`,
        [x, y],
      );
      return row!.n > 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  describe('a tariff delete racing a transition create', () => {
    const remove = (id: number) => owner.client.delete(`/api/v1/tariffs/${id}`, { account_id: accountId });
    const STILL_REFERENCED = conflict('The tariff is still referenced by a tariff transition');

    async function transitionsToDeleted() {
      const [row] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM tariff_transitions tt JOIN tariffs d ON d.id IN (tt.predecessor_id, tt.successor_id)
         WHERE d.deleted_at IS NOT NULL`,
      );
      return row!.n;
    }

    it('never creates a transition to a deleted successor: 201 and 409, or 204 and 400', async () => {
      const wrongAnswers: unknown[] = [];
      const violations = await countViolations(async () => {
        const [pred, succ] = (await tariffs(2)) as [number, number];
        const [deleted, created] = await Promise.all([remove(succ), create(pred, succ, inAMonth().toISOString())]);
        const ok =
          (created.status === 201 && deleted.status === 409 && same(deleted.body, STILL_REFERENCED)) ||
          (deleted.status === 204 &&
            same(
              created.body,
              invalid('successor_id: The successor must be an existing tariff of the same organization'),
            ));
        if (!ok) wrongAnswers.push([summary(deleted), summary(created)]);
        return (await transitionsToDeleted()) > 0;
      });
      expect(violations).toBe(0);
      expect(wrongAnswers).toEqual([]);
    });

    it('never creates a transition from a deleted predecessor: 201 and 409, or 204 and 404', async () => {
      const wrongAnswers: unknown[] = [];
      const violations = await countViolations(async () => {
        const [pred, succ] = (await tariffs(2)) as [number, number];
        const [deleted, created] = await Promise.all([remove(pred), create(pred, succ, inAMonth().toISOString())]);
        const ok =
          (created.status === 201 && deleted.status === 409 && same(deleted.body, STILL_REFERENCED)) ||
          (deleted.status === 204 && same(created.body, notFound('Tariff')));
        if (!ok) wrongAnswers.push([summary(deleted), summary(created)]);
        return (await transitionsToDeleted()) > 0;
      });
      expect(violations).toBe(0);
      expect(wrongAnswers).toEqual([]);
    });
  });

  it('deletes a transition exactly once when two deletes race: one 204, the other 404', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const [pred, succ] = (await tariffs(2)) as [number, number];
      await insertTransition(t.db, accountId, pred, succ, inAMonth());
      const replies = await Promise.all([0, 1].map(() => owner.client.delete(url(pred), { account_id: accountId })));
      const loser = replies.find((r) => r.status !== 204);
      if (loser && !same(loser.body, notFound('Transition'))) wrongAnswers.push(summary(loser));
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
