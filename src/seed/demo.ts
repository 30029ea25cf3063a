import { hashPassword } from '../modules/auth/passwords.ts';
import type { Database, Executor } from '../db/types.ts';
import { type DemoSites, seedDemoSites } from './demo-sites.ts';
import { seedDemoReadings } from './demo-readings.ts';
import { type DemoTariffs, seedDemoTariffs } from './demo-tariffs.ts';

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

/** The demo organization and what the demo seeds made in it. */
export interface DemoSeed extends DemoSites {
  accountId: string;
  tariffIds: DemoTariffs;
}

/** Prices each demo meter with its tariff, on the meter and in the site's dashboard config. */
async function assignDemoTariffs(tx: Executor, accountId: string, sites: DemoSites, tariffs: DemoTariffs) {
  const pairs = [
    [sites.meterIds.grid, tariffs.gridTariffId],
    [sites.meterIds.solar, tariffs.solarTariffId],
    [sites.meterIds.load, tariffs.loadTariffId],
  ];
  for (const [meterId, tariffId] of pairs) {
    await tx.query('UPDATE meters SET tariff_id = $3 WHERE id = $1 AND account_id = $2', [meterId, accountId, tariffId]);
  }
  await tx.query(
    `UPDATE energy_dashboard_configs SET grid_tariff_id = $3, solar_tariff_id = $4, load_tariff_id = $5
     WHERE building_block_id = $1 AND account_id = $2`,
    [sites.blockId, accountId, tariffs.gridTariffId, tariffs.solarTariffId, tariffs.loadTariffId],
  );
}

/** The demo user, organization, sites, tariffs and 90 days of readings up to now, once: undefined when they exist. */
export async function seedDemo(db: Database, now = new Date()): Promise<DemoSeed | undefined> {
  const existing = await db.query('SELECT 1 FROM users WHERE email = $1', [DEMO_EMAIL]);
  if (existing.length > 0) return undefined;
  return db.transaction(async (tx) => {
    const ownerId = await insertDemoUser(tx);
    const accountId = await insertDemoOrganization(tx, ownerId);
    const sites = await seedDemoSites(tx, accountId);
    const tariffIds = await seedDemoTariffs(tx, accountId);
    await assignDemoTariffs(tx, accountId, sites, tariffIds);
    await seedDemoReadings(tx, sites.meterIds, now);
    return { accountId, ...sites, tariffIds };
  });
}
