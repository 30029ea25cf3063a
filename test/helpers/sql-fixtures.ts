import { notifyOtherProcesses } from '../../src/db/read-cache.ts';
import type { Database, Executor } from '../../src/db/types.ts';
import { ReadingBatch } from '../../src/modules/timeseries/readings.ts';
import { prepareReadings, storeReadings } from '../../src/modules/timeseries/store-readings.ts';

/**
 * Rows inserted directly, for tests whose subject is not how these rows are created. A meter's or
 * config's tariffs are recorded in the tariff history as assigned from the beginning of time.
 */
export async function insertTariff(db: Executor, accountId: string, name = 'Tariff'): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO tariffs (account_id, name, effective_from, effective_to) VALUES ($1, $2, '2025-01-01', '2030-12-31') RETURNING id`,
    [accountId, name],
  );
  return row!.id;
}

export async function insertBuildingBlock(db: Executor, accountId: string, name = 'Block'): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO building_blocks (account_id, name, building_type, address, city, state, postal_code, country)
     VALUES ($1, $2, 'COMMERCIAL', '1 Main Rd', 'Johannesburg', 'Gauteng', 2001, 'ZA') RETURNING id`,
    [accountId, name],
  );
  return row!.id;
}

export async function insertMeter(
  db: Executor,
  accountId: string,
  blockId: number,
  options: { tariffId?: number | null; meterSn?: string; meterType?: string; intervalMinutes?: number } = {},
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, tariff_id, interval_minutes)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [
      accountId,
      blockId,
      options.meterSn ?? `SN-${crypto.randomUUID()}`,
      options.meterType ?? 'ELECTRICITY',
      options.tariffId ?? null,
      options.intervalMinutes ?? 30,
    ],
  );
  if (options.tariffId != null) {
    await db.query(
      `INSERT INTO tariff_history (account_id, meter_id, tariff_id, recorded_at, cause)
       VALUES ($1, $2, $3, now(), 'EXISTING')`,
      [accountId, row!.id, options.tariffId],
    );
  }
  return row!.id;
}

const SOURCES = ['grid', 'solar', 'genset', 'inverter', 'load'] as const;
type BySource = Partial<Record<(typeof SOURCES)[number], number>>;

export async function insertDashboardConfig(
  db: Executor,
  accountId: string,
  blockId: number,
  tariffs: BySource,
  meters: BySource = {},
): Promise<void> {
  const columns = [...SOURCES.map((s) => `${s}_tariff_id`), ...SOURCES.map((s) => `${s}_meter_id`)];
  const params = [
    blockId,
    accountId,
    ...SOURCES.map((s) => tariffs[s] ?? null),
    ...SOURCES.map((s) => meters[s] ?? null),
  ];
  await db.query(
    `INSERT INTO energy_dashboard_configs (building_block_id, account_id, ${columns.join(', ')})
     VALUES (${params.map((_, i) => `$${i + 1}`).join(', ')})`,
    params,
  );
  for (const source of SOURCES.filter((s) => tariffs[s] !== undefined)) {
    await db.query(
      `INSERT INTO tariff_history (account_id, building_block_id, source, tariff_id, recorded_at, cause)
       VALUES ($1, $2, $3, $4, now(), 'EXISTING')`,
      [accountId, blockId, source, tariffs[source]],
    );
  }
}

export async function insertTransition(
  db: Executor,
  accountId: string,
  predecessorId: number,
  successorId: number,
  effectiveFrom: Date | string,
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO tariff_transitions (account_id, predecessor_id, successor_id, effective_from)
     VALUES ($1, $2, $3, $4) RETURNING id`,
    [accountId, predecessorId, successorId, effectiveFrom],
  );
  return row!.id;
}

const SLOT_MS = 30 * 60_000;

interface ReadingValues {
  import_kwh: number;
  export_kwh?: number;
  kvarh?: number;
  kva?: number;
}

/** Readings (with their hourly and daily rollups, as every ingest stores them) of one meter. */
export async function insertReadingsAt(db: Database, meterId: number, readings: (ReadingValues & { ts: number })[]) {
  const batch = new ReadingBatch(readings.length);
  for (const v of readings) {
    batch.push(meterId, v.ts, v.import_kwh, v.export_kwh ?? 0, v.kvarh ?? 0, v.import_kwh * 2, v.kva ?? 0);
  }
  const [meter] = await db.query<{ account_id: string }>('SELECT account_id FROM meters WHERE id = $1', [meterId]);
  await db.transaction((tx) => storeReadings(tx, meter!.account_id, prepareReadings(batch), notifyOtherProcesses));
}

/** Readings of consecutive 30-minute slots from start; value(i) gives slot i's values. */
export async function insertReadings(
  db: Database,
  meterId: number,
  start: string,
  slots: number,
  value: (i: number) => ReadingValues,
) {
  const readings = Array.from({ length: slots }, (_, i) => ({ ts: Date.parse(start) + i * SLOT_MS, ...value(i) }));
  await insertReadingsAt(db, meterId, readings);
}

export async function countReadings(db: Executor, meterId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM readings WHERE meter_id = $1', [
    meterId,
  ]);
  return row!.count;
}

/**
 * A building of the organization whose grid meter (`meterSn`) has four 30-minute readings of 1 kWh
 * from `start`, priced by a tariff of 2.00 a kWh: its cost of the day is 8.00.
 */
export async function insertPricedBuilding(db: Database, accountId: string, meterSn: string, start: string) {
  const blockId = await insertBuildingBlock(db, accountId);
  const tariffId = await insertTariff(db, accountId);
  await db.query(`INSERT INTO tariff_items (tariff_id, item_type_code, price) VALUES ($1, 'IMPORT_ENERGY', 2)`, [
    tariffId,
  ]);
  const meterId = await insertMeter(db, accountId, blockId, { meterSn });
  await insertReadings(db, meterId, start, 4, () => ({ import_kwh: 1 }));
  await insertDashboardConfig(db, accountId, blockId, { grid: tariffId }, { grid: meterId });
  return { blockId, tariffId, meterId };
}
