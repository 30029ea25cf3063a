import type { Executor } from '../../src/db/types.ts';

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

/** Half-hourly readings from start; value(i) gives slot i's import, export, kvarh and kva. */
export async function insertReadings(
  db: Executor,
  meterId: number,
  start: string,
  slots: number,
  value: (i: number) => { import_kwh: number; export_kwh?: number; kvarh?: number; kva?: number },
) {
  for (let i = 0; i < slots; i++) {
    const v = value(i);
    await db.query(
      'INSERT INTO readings (meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        meterId,
        new Date(Date.parse(start) + i * SLOT_MS),
        v.import_kwh,
        v.export_kwh ?? 0,
        v.kvarh ?? 0,
        v.import_kwh * 2,
        v.kva ?? 0,
      ],
    );
  }
}

export async function countReadings(db: Executor, meterId: number): Promise<number> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM readings WHERE meter_id = $1', [
    meterId,
  ]);
  return row!.count;
}
