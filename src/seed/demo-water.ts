import { notifyOtherProcesses } from '../db/read-cache.ts';
import type { Transaction } from '../db/types.ts';
import { dashboardConfigRepository as configs } from '../modules/dashboard-config/dashboard-config.repository.ts';
import { metersRepository as meters } from '../modules/meters/meters.repository.ts';
import { catalogueRepository } from '../modules/tariffs/catalogue.repository.ts';
import { storeRegisterReads } from '../modules/timeseries/water-register.ts';

export const DEMO_WATER_SERIAL = 'DEMO-WATER-001';

/** The catalogue's City of Cape Town commercial water and sanitation tariffs (migration 0020), by first day. */
const COMMERCIAL_WATER = [
  { id: 21, from: '2025-07-01' },
  { id: 22, from: '2026-07-01' },
];

/** kL a month, from twelve months ago on: an office campus, more in summer. */
const MONTHLY_KL = [212.4, 198.1, 225.7, 240.2, 251.9, 233.3, 207.6, 188.4, 176.2, 169.8, 181.5, 196.3];
const FIRST_REGISTER_KL = 48_310.5;
/** The municipality estimated one month's read. */
const ESTIMATED_READ = 6;

/** The first of the month `back` months before now's, at 08:00 in Cape Town (when the meter reader comes). */
function readDay(now: Date, back: number): Date {
  const local = new Date(now.getTime() + 2 * 3_600_000);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - back, 1, 6));
}

/**
 * The campus's water meter, read by hand on the first of each month for a year, priced by the
 * catalogue's Cape Town commercial water and sanitation tariff in force now (copied), as the
 * dashboard config's water supply and the meter's own tariff.
 */
export async function seedDemoWater(tx: Transaction, accountId: string, blockId: number, now: Date) {
  const today = now.toISOString().slice(0, 10);
  const catalogueId = COMMERCIAL_WATER.filter((t) => t.from <= today).at(-1)?.id ?? COMMERCIAL_WATER[0]!.id;
  const tariff = await catalogueRepository.clone(tx, catalogueId, accountId, {});
  const meter = await meters.insert(tx, accountId, {
    building_block_id: blockId,
    meter_sn: DEMO_WATER_SERIAL,
    meter_type: 'WATER',
    name: 'Municipal water',
    interval_minutes: 60,
    tariff_id: tariff.id,
  });
  await configs.upsert(tx, accountId, blockId, { water_supply_meter_id: meter.id, water_supply_tariff_id: tariff.id });
  let register = FIRST_REGISTER_KL;
  const reads = [{ read_at: readDay(now, MONTHLY_KL.length), register_kl: register, estimated: false }];
  MONTHLY_KL.forEach((kl, i) => {
    register = Math.round((register + kl) * 10) / 10;
    reads.push({
      read_at: readDay(now, MONTHLY_KL.length - 1 - i),
      register_kl: register,
      estimated: i === ESTIMATED_READ,
    });
  });
  await storeRegisterReads(
    tx,
    accountId,
    { ...meter, account_id: accountId },
    { account_id: accountId, reads, rollover: false },
    notifyOtherProcesses,
  );
  return { meterId: meter.id, tariffId: tariff.id };
}
