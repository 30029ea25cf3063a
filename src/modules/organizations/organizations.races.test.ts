import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_NOT_MEMBER, failure, notFound } from '../../../test/helpers/envelopes.ts';
import { addMember, createOrganization, registerUser, type TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { countViolations, onPostgres, same, statuses, summary } from '../../../test/helpers/races.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const base = '/api/v1/organizations';

describe.runIf(onPostgres)('organization rules under concurrent requests (PostgreSQL)', () => {
  let t: TestApp;
  let primary: TestUser;
  let b: TestUser;
  let c: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    [primary, b, c] = await Promise.all([
      registerUser(t.app, 'primary'),
      registerUser(t.app, 'b'),
      registerUser(t.app, 'c'),
    ]);
  });
  afterAll(async () => t.close());

  async function members(accountId: string, userIds: string[]) {
    const [row] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM memberships WHERE account_id = $1 AND user_id = ANY($2::uuid[])',
      [accountId, userIds],
    );
    return row!.n;
  }

  it('lets only a current OWNER remove an OWNER: two owners removing each other give one 204 and one 403', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const accountId = await createOrganization(primary);
      await addMember(primary, accountId, b, 'OWNER');
      await addMember(primary, accountId, c, 'OWNER');
      const replies = await Promise.all([
        b.client.delete(`${base}/${accountId}/members/${c.id}`),
        c.client.delete(`${base}/${accountId}/members/${b.id}`),
      ]);
      const loser = replies.find((r) => r.status !== 204);
      if (!loser || !same(loser.body, FORBIDDEN_NOT_MEMBER)) wrongAnswers.push(replies.map(summary));
      return (await members(accountId, [b.id, c.id])) === 0;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('removes a member exactly once when two removals race: one 204, the other 404', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const accountId = await createOrganization(primary);
      await addMember(primary, accountId, b, 'ADMIN');
      const replies: Reply[] = await Promise.all(
        [0, 1].map(() => primary.client.delete(`${base}/${accountId}/members/${b.id}`)),
      );
      const loser = replies.find((r) => r.status !== 204);
      if (loser && !same(loser.body, notFound('Member'))) wrongAnswers.push(summary(loser));
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });

  it('deletes an organization exactly once when two deletes race: one 204, the other 404', async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const accountId = await createOrganization(primary);
      const replies: Reply[] = await Promise.all([0, 1].map(() => primary.client.delete(`${base}/${accountId}`)));
      const loser = replies.find((r) => r.status !== 204);
      if (loser && !same(loser.body, notFound('Organization'))) wrongAnswers.push(summary(loser));
      return replies.filter((r) => r.status === 204).length !== 1;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});

describe.runIf(onPostgres)('organizations a user creates per day, under concurrent requests (PostgreSQL)', () => {
  const LIMIT = 3;
  const TOO_MANY_CREATED = failure(
    'Too many requests',
    `A user may create at most ${LIMIT} organizations in 24 hours; retry later`,
  );
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ORGANIZATIONS_PER_USER_PER_DAY: String(LIMIT) });
  });
  afterAll(async () => t.close());

  it(`creates exactly ${LIMIT} of ${LIMIT + 3} racing creations of one user, the others 429`, async () => {
    const wrongAnswers: unknown[] = [];
    const violations = await countViolations(async () => {
      const user = await registerUser(t.app);
      const replies = await Promise.all(
        Array.from({ length: LIMIT + 3 }, (_, i) =>
          user.client.post(base, { name: `Org ${i}`, primary_owner_user_id: user.id }),
        ),
      );
      const refused = replies.filter((r) => r.status !== 201);
      if (refused.some((r) => r.status !== 429 || !same(r.body, TOO_MANY_CREATED)))
        wrongAnswers.push(statuses(replies));
      const [row] = await t.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM accounts WHERE primary_owner_user_id = $1 AND NOT is_personal_account',
        [user.id],
      );
      return row!.n !== LIMIT || replies.length - refused.length !== LIMIT;
    });
    expect(violations).toBe(0);
    expect(wrongAnswers).toEqual([]);
  });
});
