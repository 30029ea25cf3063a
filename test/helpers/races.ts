import { isDeepStrictEqual } from 'node:util';
import { createOrganization, registerUser, type TestUser } from './factories.ts';
import type { Reply } from './http.ts';
import { insertBuildingBlock } from './sql-fixtures.ts';
import { startTestApp, type TestApp } from './test-app.ts';

/**
 * Races need PostgreSQL: the embedded database runs one transaction at a time, so requests sent
 * together never interleave there.
 */
export const onPostgres = Boolean(process.env.DATABASE_URL);

/** How many times each race is run. */
export const ROUNDS = 50;

/** The statuses of replies sent together, sorted (the order they finish in is not the point). */
export const statuses = (replies: readonly Reply[]) => replies.map((r) => r.status).sort((a, b) => a - b);

/**
 * Runs round(i) ROUNDS times, one after the other, and returns how many rounds broke the rule
 * (round returns true for a violation). Each round sets up its own rows and sends its requests together.
 */
export async function countViolations(round: (i: number) => Promise<boolean>, rounds = ROUNDS): Promise<number> {
  let violations = 0;
  for (let i = 0; i < rounds; i++) if (await round(i)) violations++;
  return violations;
}

/** Whether a reply body is exactly the expected envelope. */
export const same = (body: unknown, expected: unknown) => isDeepStrictEqual(body, expected);

/** A reply in a few words, for the list of wrong answers a test reports. */
export const summary = (reply: Reply) => `${reply.status} ${reply.body?.error ?? ''}`.trim();

/** A test app with an owner, their organization and one building block: what each file's races start from. */
export async function startRaceWorld(): Promise<{ t: TestApp; owner: TestUser; accountId: string; blockId: number }> {
  const t = await startTestApp();
  const owner = await registerUser(t.app, 'owner');
  const accountId = await createOrganization(owner);
  return { t, owner, accountId, blockId: await insertBuildingBlock(t.db, accountId) };
}
