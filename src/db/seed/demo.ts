import { hashPassword } from '../../modules/auth/passwords.ts';
import type { Database, Executor } from '../types.ts';
import { type DemoSites, seedDemoSites } from './demo-sites.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ORGANIZATION = 'Demo Utilities';

async function insertDemoUser(tx: Executor): Promise<string> {
  const [user] = await tx.query<{ id: string }>(
    'INSERT INTO users (email, password_hash) VALUES ($1, $2) RETURNING id',
    [DEMO_EMAIL, await hashPassword(DEMO_PASSWORD)],
  );
  const [personal] = await tx.query<{ id: string }>(
    `INSERT INTO accounts (name, email, is_personal_account, primary_owner_user_id) VALUES ($1, $1, true, $2) RETURNING id`,
    [DEMO_EMAIL, user!.id],
  );
  await tx.query(`INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'OWNER')`, [
    personal!.id,
    user!.id,
  ]);
  return user!.id;
}

async function insertDemoOrganization(tx: Executor, ownerId: string): Promise<string> {
  const [account] = await tx.query<{ id: string }>(
    'INSERT INTO accounts (name, primary_owner_user_id) VALUES ($1, $2) RETURNING id',
    [DEMO_ORGANIZATION, ownerId],
  );
  await tx.query(`INSERT INTO memberships (account_id, user_id, role) VALUES ($1, $2, 'OWNER')`, [
    account!.id,
    ownerId,
  ]);
  return account!.id;
}

/** The demo organization and what the demo seeds made in it; later seeds (tariffs, readings) start from here. */
export interface DemoSeed extends DemoSites {
  accountId: string;
}

/** The demo user, organization and sites, once: returns undefined when they already exist. */
export async function seedDemo(db: Database): Promise<DemoSeed | undefined> {
  const existing = await db.query('SELECT 1 FROM users WHERE email = $1', [DEMO_EMAIL]);
  if (existing.length > 0) return undefined;
  return db.transaction(async (tx) => {
    const ownerId = await insertDemoUser(tx);
    const accountId = await insertDemoOrganization(tx, ownerId);
    return { accountId, ...(await seedDemoSites(tx, accountId)) };
  });
}
