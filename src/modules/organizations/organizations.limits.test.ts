import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failure } from '../../../test/helpers/envelopes.ts';
import { registerUser, type TestUser } from '../../../test/helpers/factories.ts';
import type { Reply } from '../../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const base = '/api/v1/organizations';
const TOO_MANY_CREATED = failure(
  'Too many requests',
  'A user may create at most 2 organizations in 24 hours; retry later',
);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ ORGANIZATIONS_PER_USER_PER_DAY: '2' });
});
afterAll(async () => t.close());

const create = (user: TestUser, name = 'Org') => user.client.post(base, { name, primary_owner_user_id: user.id });

async function ownedOrganizations(user: TestUser): Promise<number> {
  const [row] = await t.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM accounts WHERE primary_owner_user_id = $1 AND NOT is_personal_account',
    [user.id],
  );
  return row!.n;
}

function expectTooManyCreated(reply: Reply) {
  expect({ status: reply.status, body: reply.body }).toEqual({ status: 429, body: TOO_MANY_CREATED });
  // The oldest creation was moments ago: it leaves the 24-hour window in a day, give or take the test's run.
  const retryAfter = Number(reply.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(86_400 - 3_600);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
}

describe('organizations a user creates per day (ORGANIZATIONS_PER_USER_PER_DAY=2)', () => {
  it('creates up to the limit, then answers 429 with Retry-After and creates nothing', async () => {
    const user = await registerUser(t.app);
    expect((await create(user, 'First')).status).toBe(201);
    expect((await create(user, 'Second')).status).toBe(201);
    expectTooManyCreated(await create(user, 'Third'));
    expect(await ownedOrganizations(user)).toBe(2);
  });

  it('counts deleted organizations: deleting one does not allow another', async () => {
    const user = await registerUser(t.app);
    const first = await create(user);
    expect((await create(user)).status).toBe(201);
    expect((await user.client.delete(`${base}/${first.body.data.id}`)).status).toBe(204);
    expectTooManyCreated(await create(user));
    expect(await ownedOrganizations(user)).toBe(1);
  });

  it('limits each user on their own', async () => {
    const [a, b] = await Promise.all([registerUser(t.app), registerUser(t.app)]);
    for (const user of [a, a]) expect((await create(user)).status).toBe(201);
    expectTooManyCreated(await create(a));
    expect((await create(b)).status).toBe(201);
  });

  it('allows creating again once the oldest creation is a day old', async () => {
    const user = await registerUser(t.app);
    for (const name of ['Old', 'Recent']) expect((await create(user, name)).status).toBe(201);
    expectTooManyCreated(await create(user));
    // The first creation a day and a minute ago, as time would have made it.
    await t.db.query(
      `UPDATE organization_creations SET created_at = created_at - interval '1 day 1 minute'
       WHERE user_id = $1 AND created_at = (SELECT min(created_at) FROM organization_creations WHERE user_id = $1)`,
      [user.id],
    );
    expect((await create(user, 'Next day')).status).toBe(201);
    expectTooManyCreated(await create(user));
  });
});
