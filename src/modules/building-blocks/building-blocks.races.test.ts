import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFound } from '../../../test/helpers/envelopes.ts';
import type { TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, startRaceWorld, summary } from '../../../test/helpers/races.ts';
import { insertBuildingBlock } from '../../../test/helpers/sql-fixtures.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

describe.runIf(onPostgres)('building blocks under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let owner: TestUser;
  let accountId: string;
  beforeAll(async () => {
    ({ t, owner, accountId } = await startRaceWorld());
  });
  afterAll(async () => t.close());

  it('deletes a block exactly once when five deletes race: one 204, the others 404', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const blockId = await insertBuildingBlock(t.db, accountId);
      const replies: Reply[] = await Promise.all(
        [0, 1, 2, 3, 4].map(() => owner.client.delete(`/api/v1/building_blocks/${blockId}`, { account_id: accountId })),
      );
      for (const loser of replies.filter((r) => r.status !== 204)) {
        if (!same(loser.body, notFound('Building block'))) wrongAnswers.push(summary(loser));
      }
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
