import type { Executor } from '../db/types.ts';
import { lastWholeMonth } from '../http/examples.ts';
import { authRepository } from '../modules/auth/auth.repository.ts';
import { invoicesRepository } from '../modules/invoices/invoices.repository.ts';
import { metersRepository } from '../modules/meters/meters.repository.ts';
import { tariffItemsRepository } from '../modules/tariff-items/tariff-items.repository.ts';
import { tariffsRepository } from '../modules/tariffs/tariffs.repository.ts';
import { aggregatesRepository } from '../modules/timeseries/aggregates.repository.ts';
import { readingsRepository } from '../modules/timeseries/readings.repository.ts';
import { registerReadsRepository } from '../modules/timeseries/register-reads.repository.ts';
import { DEMO_EMAIL, DEMO_ORGANIZATION } from './demo.ts';
import { DEMO_GRID_SERIAL } from './demo-sites.ts';
import { DEMO_WATER_SERIAL } from './demo-water.ts';

const ALL_TIME = { start: new Date(Date.UTC(1900, 0, 1)), end: new Date(Date.UTC(9999, 0, 1)) };

/** Values of the demo that requests can name: its ids, and a month of its readings. */
type DemoSamples = Record<string, string>;

/**
 * The demo's user, organization, site, grid meter, grid tariff (the demo's first tariff, the
 * predecessor of its transition), one of its items, the catalogue tariff it was cloned from, its
 * schedule and DSO, its first invoice, and the last whole month of the grid meter's readings; undefined without the
 * demo (or without its readings).
 */
export async function demoSamples(db: Executor): Promise<DemoSamples | undefined> {
  const user = await authRepository.findUserByEmail(db, DEMO_EMAIL);
  if (!user) return undefined;
  const organizations = await authRepository.organizationsOf(db, user.id);
  const accountId = organizations.find((o) => o.name === DEMO_ORGANIZATION && !o.is_personal_account)?.id;
  const bySerial = new Map(
    (await readingsRepository.findMetersBySerial(db, [DEMO_GRID_SERIAL, DEMO_WATER_SERIAL])).map((m) => [
      m.meter_sn,
      m,
    ]),
  );
  const [found, water] = [bySerial.get(DEMO_GRID_SERIAL), bySerial.get(DEMO_WATER_SERIAL)];
  const grid = found && (await metersRepository.find(db, found.id));
  if (!accountId || grid?.account_id !== accountId) return undefined;
  const first = { page: 1, limit: 1, sortBy: 'id', sortOrder: 'asc' } as const;
  const [tariffs, latest, invoices] = await Promise.all([
    tariffsRepository.list(db, { accountId }, first),
    aggregatesRepository.latest(db, accountId, grid.id, ALL_TIME),
    invoicesRepository.list(db, accountId, {}, first),
  ]);
  const [tariff] = tariffs.rows;
  if (!tariff || !latest) return undefined;
  const [item] = await tariffItemsRepository.ofTariff(db, accountId, tariff.id);
  const [firstRead] = water ? await registerReadsRepository.list(db, accountId, water.id) : [];
  const firstReading = water && (await readingsRepository.firstReading(db, accountId, water.id));
  const end = new Date(latest.ts.getTime() + grid.interval_minutes * 60_000);
  return Object.fromEntries(
    Object.entries({
      account_id: accountId,
      user_id: user.id,
      building_block_id: grid.building_block_id,
      meter_id: grid.id,
      meter_sn: grid.meter_sn,
      tariff_id: tariff.id,
      tariff_item_id: item?.id,
      catalogue_tariff_id: tariff.cloned_from,
      tou_schedule_id: tariff.tou_schedule_id,
      invoice_id: invoices.rows[0]?.id,
      dso_id: tariff.dso_id,
      water_meter_id: water?.id,
      water_meter_sn: water?.meter_sn,
      // Sent again as it is, the water meter's first read changes nothing.
      water_first_read:
        firstRead &&
        JSON.stringify([
          { read_at: firstRead.read_at, register_kl: Number(firstRead.register_kl), estimated: firstRead.estimated },
        ]),
      // So is its first interval reading.
      water_first_reading:
        firstReading &&
        JSON.stringify([{ ts: firstReading.ts.toISOString(), volume_kl: Number(firstReading.import_kwh) }]),
      ...lastWholeMonth(end),
    })
      .filter(([, value]) => value != null)
      .map(([key, value]) => [key, String(value)]),
  );
}
