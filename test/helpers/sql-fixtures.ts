import type { Executor } from '../../src/db/types.ts';

/** Rows inserted directly, for tests whose subject is not how these rows are created. */
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
  return row!.id;
}

export async function insertDashboardConfig(
  db: Executor,
  accountId: string,
  blockId: number,
  tariffs: Partial<Record<'grid' | 'solar' | 'genset' | 'inverter' | 'load', number>>,
): Promise<void> {
  await db.query(
    `INSERT INTO energy_dashboard_configs
       (building_block_id, account_id, grid_tariff_id, solar_tariff_id, genset_tariff_id, inverter_tariff_id, load_tariff_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [blockId, accountId, tariffs.grid ?? null, tariffs.solar ?? null, tariffs.genset ?? null, tariffs.inverter ?? null, tariffs.load ?? null],
  );
}
