import type { Database, Executor } from '../db/types.ts';
import type { App } from '../http/types.ts';
import { authRepository as users } from '../modules/auth/auth.repository.ts';
import { hashPassword } from '../modules/auth/passwords.ts';
import { dashboardConfigRepository as configs } from '../modules/dashboard-config/dashboard-config.repository.ts';
import { metersRepository as meters } from '../modules/meters/meters.repository.ts';
import { organizationsRepository as organizations } from '../modules/organizations/organizations.repository.ts';
import { requestChange } from '../modules/tariff-history/tariff-history.model.ts';
import { tariffHistoryRepository as history } from '../modules/tariff-history/tariff-history.repository.ts';
import { seedDemoInvoice } from './demo-invoice.ts';
import { seedDemoReadings } from './demo-readings.ts';
import { type DemoSites, seedDemoSites } from './demo-sites.ts';
import { type DemoTariffs, seedDemoTariffs } from './demo-tariffs.ts';
import { seedDemoTransitions } from './demo-transition.ts';
import { seedDemoWater } from './demo-water.ts';

export const DEMO_EMAIL = 'demo@example.com';
export const DEMO_PASSWORD = 'demo-password';
export const DEMO_ORGANIZATION = 'Demo Utilities';

async function insertDemoUser(tx: Executor): Promise<string> {
  const user = await users.insertUser(tx, DEMO_EMAIL, await hashPassword(DEMO_PASSWORD));
  if (!user) throw new Error(`demo user ${DEMO_EMAIL} exists already`);
  await users.insertPersonalAccount(tx, user);
  return user.id;
}

/** The demo organization and what the demo seeds made in it. */
export interface DemoSeed extends DemoSites {
  accountId: string;
  /** gridTariffId: the grid meter's tariff now, the one of the current tariff year. */
  tariffIds: DemoTariffs;
  /** The grid meter's first tariff (2025/26), which transitions replaced by the tariffs of later years. */
  firstTariffId: number;
  /** The grid tariff's successor from the next 1 April (a pending transition). */
  nextTariffId: number;
  /** The site's water meter: a year of monthly register reads, a Cape Town water and sanitation tariff. */
  waterMeterId: number;
  /** The utility's invoice of the site's grid for the last whole month. */
  invoiceId: number;
}

/**
 * Prices the site once: the grid meter and the tenants' meters have the grid tariff; solar and
 * load are shown, not billed; the water meter's tariff is set with it (demo-water.ts).
 * The first tariffs of a meter and a source count from the beginning of time in their history.
 */
async function assignDemoTariffs(
  tx: Executor,
  accountId: string,
  sites: DemoSites & { waterMeterId: number },
  tariffs: DemoTariffs,
  now: Date,
) {
  const meterIds = [sites.meterIds.grid, ...sites.tenants.map((tenant) => tenant.meterId)];
  const blockIds = [sites.blockId, ...sites.tenants.map((tenant) => tenant.blockId)];
  for (const meterId of meterIds) await meters.update(tx, accountId, meterId, { tariff_id: tariffs.gridTariffId });
  for (const blockId of blockIds)
    await configs.upsert(tx, accountId, blockId, { grid_tariff_id: tariffs.gridTariffId });
  await history.recordMeters(tx, accountId, [...meterIds, sites.waterMeterId], requestChange(now, 'UPDATE'));
  await history.recordConfigs(tx, accountId, blockIds, requestChange(now, 'UPDATE'));
}

/**
 * The demo user, organization, sites, tariffs (one per tariff year, linked by transitions, the next
 * one pending) and 90 days of readings up to now, once: undefined when they exist. Then the
 * utility's invoice of the last whole month, through the built app (demo-invoice.ts).
 */
export async function seedDemo(
  { app, db }: { app: App; db: Database },
  now = new Date(),
): Promise<DemoSeed | undefined> {
  if (await users.findUserByEmail(db, DEMO_EMAIL)) return undefined;
  const seeded = await db.transaction(async (tx) => {
    const ownerId = await insertDemoUser(tx);
    const { id: accountId } = await organizations.insert(tx, DEMO_ORGANIZATION, ownerId);
    const sites = await seedDemoSites(tx, accountId);
    const first = await seedDemoTariffs(tx, accountId);
    const water = await seedDemoWater(tx, accountId, sites.blockId, now);
    await assignDemoTariffs(tx, accountId, { ...sites, waterMeterId: water.meterId }, first, now);
    const years = await seedDemoTransitions(tx, accountId, first.gridTariffId, ownerId, now);
    await seedDemoReadings(tx, { ...sites.meterIds, tenants: sites.tenants.map((tenant) => tenant.meterId) }, now);
    return {
      accountId,
      ...sites,
      waterMeterId: water.meterId,
      tariffIds: { gridTariffId: years.currentTariffId },
      firstTariffId: first.gridTariffId,
      nextTariffId: years.nextTariffId,
    };
  });
  const login = { email: DEMO_EMAIL, password: DEMO_PASSWORD };
  return { ...seeded, invoiceId: await seedDemoInvoice(app, login, seeded, now) };
}
