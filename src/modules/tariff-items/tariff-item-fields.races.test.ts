import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalid } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import { createItems, createTariff } from '../../../test/helpers/tariff-factories.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

const NOT_TOU = 'Only the items of a TIME_OF_USE tariff may have demand_periods';

describe.runIf(onPostgres)('demand_periods and the tariff type under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  beforeAll(async () => {
    ({ t, owner, accountId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  /** Items with demand_periods on a tariff that is not TIME_OF_USE: what the rule forbids. */
  async function itemsBreakingTheRule(tariffId: number) {
    const [row] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM tariff_items i JOIN tariffs t ON t.id = i.tariff_id
       WHERE t.id = $1 AND t.tariff_type <> 'TIME_OF_USE' AND i.demand_periods IS NOT NULL`,
      [tariffId],
    );
    return row!.n;
  }

  /**
   * A TIME_OF_USE tariff with a NETWORK_DEMAND item becomes FLAT while the write sets demand_periods
   * on an item of it: one of the two wins, the other answers the rule (400).
   */
  async function race(write: (tariffId: number, itemId: number) => Promise<Reply>) {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const tariff = await createTariff(owner.client, accountId, { tariff_type: 'TIME_OF_USE', tou_schedule_id: 3 });
      const [item] = await createItems(owner.client, tariff.id, { item_type_code: 'NETWORK_DEMAND', price: 50 });
      const [retyped, written] = await Promise.all([
        owner.client.put(`/api/v1/tariffs/${tariff.id}`, {
          account_id: accountId,
          tariff_type: 'FLAT',
          tou_schedule_id: null,
        }),
        write(tariff.id, item.id),
      ]);
      const writtenItem = Array.isArray(written.body?.data) ? written.body.data[0] : written.body?.data;
      const typeLost = invalid(`tariff_type: ${NOT_TOU}; set demand_periods to null on items ${writtenItem?.id} first`);
      const ok =
        (retyped.status === 200 &&
          written.status === 400 &&
          same(written.body, invalid(`demand_periods: ${NOT_TOU}`))) ||
        ([200, 201].includes(written.status) && retyped.status === 400 && same(retyped.body, typeLost));
      if (!ok) wrongAnswers.push([summary(retyped), summary(written)]);
      return (await itemsBreakingTheRule(tariff.id)) > 0;
    });
    return { violations, wrongAnswers };
  }

  it('never leaves an item with demand_periods on a tariff that left TIME_OF_USE (PUT item)', async () => {
    const { violations, wrongAnswers } = await race((tariffId, itemId) =>
      owner.client.put(`/api/v1/tariffs/${tariffId}/items/${itemId}`, { demand_periods: ['PEAK', 'STANDARD'] }),
    );
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('never leaves an item with demand_periods on a tariff that left TIME_OF_USE (POST items)', async () => {
    const { violations, wrongAnswers } = await race((tariffId) =>
      owner.client.post(`/api/v1/tariffs/${tariffId}/items`, {
        item_type_code: 'NETWORK_CAPACITY',
        price: 25,
        demand_periods: ['PEAK'],
      }),
    );
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
