import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid, notFound } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, startRaceWorld, statuses, summary } from '../../../test/helpers/races.ts';
import { insertTariff } from '../../../test/helpers/sql-fixtures.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

describe.runIf(onPostgres)('item and tier rules under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  beforeAll(async () => {
    ({ t, owner, accountId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  /** A tariff with one item whose tiers end at 350, 500 and unbounded; the item's URL and its block ids. */
  async function itemWithThreeTiers() {
    const tariffId = await insertTariff(t.db, accountId);
    const [item] = await t.db.query<{ id: number }>(
      `INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 2.1) RETURNING id`,
      [tariffId],
    );
    const blocks = await t.db.query<{ id: number }>(
      `INSERT INTO tariff_blocks (tariff_item_id, block_index, upper_limit, unit_price_cents)
       VALUES ($1, 0, 350, 210), ($1, 1, 500, 241), ($1, 2, NULL, 263) RETURNING id`,
      [item!.id],
    );
    const itemUrl = `/api/v1/tariffs/${tariffId}/items/${item!.id}`;
    return { itemUrl, blockIds: blocks.map((b) => b.id) as [number, number, number] };
  }

  async function upperLimits(itemUrl: string) {
    const itemId = Number(itemUrl.split('/').at(-1));
    const rows = await t.db.query<{ upper_limit: number | null }>(
      'SELECT upper_limit FROM tariff_blocks WHERE tariff_item_id = $1 ORDER BY block_index',
      [itemId],
    );
    return rows.map((r) => r.upper_limit);
  }

  const increasing = (limits: (number | null)[]) =>
    limits.every(
      (limit, i) =>
        i === 0 || (limit === null ? i === limits.length - 1 : limits[i - 1]! !== null && limit > limits[i - 1]!),
    );

  it('keeps tiers strictly increasing when two block updates are each valid alone (one 200, the other 400)', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const { itemUrl, blockIds } = await itemWithThreeTiers();
      const query = `?account_id=${accountId}`;
      const replies = await Promise.all([
        owner.client.put(`${itemUrl}/blocks/${blockIds[0]}${query}`, { upper_limit: 450 }),
        owner.client.put(`${itemUrl}/blocks/${blockIds[1]}${query}`, { upper_limit: 400 }),
      ]);
      const loser = replies.find((r) => r.status !== 200);
      if (
        !same(statuses(replies), [200, 400]) ||
        !same(loser?.body, invalid('upper_limit: Must increase strictly with block_index'))
      ) {
        wrongAnswers.push(replies.map(summary));
      }
      return !increasing(await upperLimits(itemUrl));
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  /** Two deletes of one resource: exactly one 204, the other 404 with this envelope. */
  async function deletedOnce(url: () => Promise<string>, expected404: unknown) {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const target = await url();
      const replies: Reply[] = await Promise.all(
        [0, 1].map(() => owner.client.delete(target, { account_id: accountId })),
      );
      const loser = replies.find((r) => r.status !== 204);
      if (loser && !same(loser.body, expected404)) wrongAnswers.push(summary(loser));
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    return { violations, wrongAnswers };
  }

  it('deletes a block exactly once when two deletes race', async () => {
    const { violations, wrongAnswers } = await deletedOnce(async () => {
      const { itemUrl, blockIds } = await itemWithThreeTiers();
      return `${itemUrl}/blocks/${blockIds[2]}`;
    }, notFound('Tariff block'));
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('deletes an item exactly once when two deletes race', async () => {
    const { violations, wrongAnswers } = await deletedOnce(
      async () => (await itemWithThreeTiers()).itemUrl,
      notFound('Tariff item'),
    );
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
