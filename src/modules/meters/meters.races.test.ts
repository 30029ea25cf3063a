import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import { insertMeter } from '../../../test/helpers/sql-fixtures.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

describe.runIf(onPostgres)('meters under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  let blockId: number;
  beforeAll(async () => {
    ({ t, owner, accountId, blockId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  it('deletes a meter exactly once when two deletes race: one 204, the other 404', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const meterId = await insertMeter(t.db, accountId, blockId);
      const replies: Reply[] = await Promise.all(
        [0, 1].map(() => owner.client.delete(`/api/v1/meters/${meterId}`, { account_id: accountId })),
      );
      const loser = replies.find((r) => r.status !== 204);
      if (loser && !same(loser.body, notFound('Meter'))) wrongAnswers.push(summary(loser));
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
