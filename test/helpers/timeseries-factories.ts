import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { Executor } from '../../src/db/types.ts';
import type { Client } from './http.ts';

export const TIMESERIES = '/api/v1/timeseries/electricity';

export interface TestMeter {
  id: number;
  meter_sn: string;
  interval_minutes: number;
}

export interface ReadingBody {
  ts: string;
  import_kwh: number;
  export_kwh?: number;
  kvarh?: number;
  power_kw?: number;
  kva?: number;
}

/** A building block written directly with SQL (the timeseries tests do not depend on its API). */
async function insertBuildingBlock(db: Executor, accountId: string): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO building_blocks (account_id, name, building_type, address, city, state, postal_code, country)
     VALUES ($1, 'Plant', 'INDUSTRIAL', '1 Main Road', 'Cape Town', 'Western Cape', 8001, 'ZA') RETURNING id`,
    [accountId],
  );
  return row!.id;
}

/** A meter (electricity, 30-minute, unless told otherwise) in a new building block of accountId. */
export async function insertMeter(
  db: Executor,
  accountId: string,
  options: { meter_type?: string; interval_minutes?: number; meter_sn?: string } = {},
): Promise<TestMeter> {
  const blockId = await insertBuildingBlock(db, accountId);
  const meter_sn = options.meter_sn ?? `SN-${randomUUID().slice(0, 8)}`;
  const [row] = await db.query<TestMeter>(
    `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, interval_minutes)
     VALUES ($1, $2, $3, $4, $5) RETURNING id, meter_sn, interval_minutes`,
    [accountId, blockId, meter_sn, options.meter_type ?? 'ELECTRICITY', options.interval_minutes ?? 30],
  );
  return row!;
}

/** Posts readings and fails the test when they are not accepted. */
export async function ingest(client: Client, accountId: string, meterSn: string, readings: ReadingBody[]) {
  const res = await client.post(`${TIMESERIES}/readings`, { account_id: accountId, meter_sn: meterSn, readings });
  if (res.status !== 200) throw new Error(`ingest failed: ${JSON.stringify(res.body)}`);
  return res.body.data as { inserted: number; updated: number };
}

/** The stored readings of a meter, oldest first, straight from the table. */
export async function storedReadings(db: Executor, meterId: number) {
  const rows = await db.query<{
    ts: Date;
    import_kwh: number;
    export_kwh: number;
    kvarh: number;
    power_kw: number;
    kva: number;
  }>('SELECT ts, import_kwh, export_kwh, kvarh, power_kw, kva FROM readings WHERE meter_id = $1 ORDER BY ts', [
    meterId,
  ]);
  return rows.map((r) => ({ ...r, ts: r.ts.toISOString() }));
}

/** The ISO time `minutes` after `base`. */
export function at(base: string, minutes: number): string {
  return new Date(Date.parse(base) + minutes * 60_000).toISOString();
}

/**
 * The hourly and daily rollups of a meter as stored, and as recomputed here from its raw readings
 * (independently of the service's SQL): equal when the rollups are up to date.
 */
export async function rollupsAndRaw(db: Executor, meterId: number) {
  const stored = (table: string) =>
    db.query(
      `SELECT bucket_start, import_uwh::text, export_uwh::text, uvarh::text, readings,
         sum_power_uw::text, max_power_kw, sum_uva::text, max_kva
       FROM ${table} WHERE meter_id = $1 ORDER BY bucket_start`,
      [meterId],
    );
  const micro = (column: string) => `sum(round(${column} * 1000000000)::bigint)::text`;
  const fromRaw = (width: string) =>
    db.query(
      `SELECT date_bin('${width}', ts, '1970-01-01T00:00:00Z') AS bucket_start,
         ${micro('import_kwh')} AS import_uwh, ${micro('export_kwh')} AS export_uwh, ${micro('kvarh')} AS uvarh,
         count(*)::int AS readings, ${micro('power_kw')} AS sum_power_uw, max(power_kw) AS max_power_kw,
         ${micro('kva')} AS sum_uva, max(kva) AS max_kva
       FROM readings WHERE meter_id = $1 GROUP BY 1 ORDER BY 1`,
      [meterId],
    );
  return {
    hourly: await stored('readings_hourly'),
    hourlyFromRaw: await fromRaw('1 hour'),
    daily: await stored('readings_daily'),
    dailyFromRaw: await fromRaw('24 hours'),
  };
}

/** A reading with every value given, as the naive computations below take them. */
export type FullReading = Required<ReadingBody>;

export interface NaiveTotals {
  ts: string;
  import_kwh: number;
  export_kwh: number;
  net_kwh: number;
  kvarh: number;
  readings: number;
  avg_kw: number;
  max_kw: number;
  avg_kva: number;
  max_kva: number;
}

const round6 = (value: Decimal) => value.toDecimalPlaces(6, Decimal.ROUND_HALF_UP).toNumber();
/** A stored value as the API reports it: rounded to 6 decimals. */
export const asReported = (value: number) => round6(new Decimal(value));
/** Sums add each value rounded to a millionth of a thousandth (1e-9): exact integers. */
const micro = (value: number) => new Decimal(Math.round(value * 1e9));

/**
 * The contract's answer computed the obvious way, reading by reading: readings with
 * start <= ts < end grouped into buckets of bucketMinutes counted from start (one bucket for the
 * whole range when bucketMinutes is undefined); only buckets with readings, ascending.
 */
export function naiveBuckets(readings: readonly FullReading[], start: string, end: string, bucketMinutes?: number) {
  const from = Date.parse(start);
  const to = Date.parse(end);
  const widthMs = bucketMinutes === undefined ? Number.POSITIVE_INFINITY : bucketMinutes * 60_000;
  const buckets = new Map<number, FullReading[]>();
  for (const reading of readings) {
    const time = Date.parse(reading.ts);
    if (time < from || time >= to) continue;
    const index = widthMs === Number.POSITIVE_INFINITY ? 0 : Math.floor((time - from) / widthMs);
    buckets.set(index, [...(buckets.get(index) ?? []), reading]);
  }
  return [...buckets.entries()]
    .sort(([a], [b]) => a - b)
    .map(
      ([index, rows]): NaiveTotals => ({
        ts: new Date(from + (widthMs === Number.POSITIVE_INFINITY ? 0 : index * widthMs)).toISOString(),
        ...naiveTotals(rows),
      }),
    );
}

/** The contract's totals of a group of readings, computed the obvious way, reading by reading. */
export function naiveTotals(rows: readonly FullReading[]): Omit<NaiveTotals, 'ts'> {
  const sum = (key: keyof Omit<FullReading, 'ts'>) =>
    rows.reduce((total, r) => total.plus(micro(r[key])), new Decimal(0)).times('1e-9');
  const max = (key: 'power_kw' | 'kva') => asReported(Math.max(...rows.map((r) => r[key])));
  return {
    import_kwh: round6(sum('import_kwh')),
    export_kwh: round6(sum('export_kwh')),
    net_kwh: round6(sum('import_kwh').minus(sum('export_kwh'))),
    kvarh: round6(sum('kvarh')),
    readings: rows.length,
    avg_kw: round6(sum('power_kw').div(rows.length)),
    max_kw: max('power_kw'),
    avg_kva: round6(sum('kva').div(rows.length)),
    max_kva: max('kva'),
  };
}

export const energyFields = ({ ts, import_kwh, export_kwh, net_kwh, kvarh }: NaiveTotals) => ({
  ts,
  import_kwh,
  export_kwh,
  net_kwh,
  kvarh,
});

export const powerFields = ({ ts, avg_kw, max_kw, avg_kva, max_kva }: NaiveTotals) => ({
  ts,
  avg_kw,
  max_kw,
  avg_kva,
  max_kva,
});

/** The energy-sum object the contract gives for these readings. */
export function naiveSum(meterSn: string, readings: readonly FullReading[], start: string, end: string) {
  const [totals] = naiveBuckets(readings, start, end);
  return {
    meter_sn: meterSn,
    start: new Date(start).toISOString(),
    end: new Date(end).toISOString(),
    import_kwh: totals?.import_kwh ?? 0,
    export_kwh: totals?.export_kwh ?? 0,
    net_kwh: totals?.net_kwh ?? 0,
    kvarh: totals?.kvarh ?? 0,
    max_kva: totals?.max_kva ?? null,
    readings: totals?.readings ?? 0,
  };
}
