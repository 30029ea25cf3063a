/**
 * Scale benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/scale.ts
 * Measures the same things on a small set (SCALE_METERS meters x SCALE_SMALL_DAYS days of
 * 30-minute readings: 1,000 x 30 = 1.44 M by default, the set of bench/timeseries.ts) and on a big
 * one (the same meters x SCALE_DAYS days: 1,000 x 365 = 17.5 M), each in a database of its own
 * served by an application of its own, and prints each figure's ratio big / small:
 * - import through the import command's path (importIntoDatabase): the small file three times into
 *   emptied tables (twice before the big set's imports, once after); the big set as the file of
 *   its first SCALE_DAYS - SCALE_SMALL_DAYS days into empty tables, then the file of its last
 *   SCALE_SMALL_DAYS days (as many readings as the small file) on top of them;
 * - energy-sums of every meter over the first SCALE_SMALL_DAYS days and over SCALE_DAYS days;
 * - one meter's energy profile by day over SCALE_DAYS days and by 30 minutes over the first month;
 * - the energy cost of a building with 5 sources (grid, solar, genset, inverter and load meters,
 *   each with a clone of the catalogue's Homeflex time-of-use tariff) over its first local month
 *   and over SCALE_DAYS days from there;
 * - what one meter's reads of the readings and hourly rollups cost the database (EXPLAIN: buffers,
 *   which the machine's load does not change, and planning + execution time).
 * Requests go through the HTTP API on a real socket, one at a time. The queries run in ROUNDS
 * rounds, each measuring both sets one after the other (the order alternates), so that a change of
 * the machine's speed during the run falls on both; a figure is the median of its rounds.
 * SCALE_PARTITIONED=month runs the same on readings and hourly rollups partitioned by month
 * (bench/partitioning.ts). The databases (ums_scale_small_<time>, ums_scale_big_<time>) are
 * dropped at the end; the CSV files (about 1 GB for the big set) go to the temporary directory,
 * each removed once imported.
 */
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { importIntoDatabase } from '../src/modules/timeseries/import/import-into-database.ts';
import { explainRead, partitionByMonth } from './partitioning.ts';
import {
  apiClient,
  freshDatabase,
  machine,
  median,
  percentile,
  requireDatabaseUrl,
  sequentialTimes,
  writeReadingsCsv,
} from './support.ts';

const METERS = Number(process.env.SCALE_METERS ?? 1_000);
const DAYS = Number(process.env.SCALE_DAYS ?? 365);
const SMALL_DAYS = Number(process.env.SCALE_SMALL_DAYS ?? 30);
const PARTITIONED = process.env.SCALE_PARTITIONED === 'month';
const ROUNDS = 3;
/** Requests per round and set. */
const SUM_RUNS = 8;
const PROFILE_REQUESTS = 70;
const MONTH_COST_REQUESTS = 35;
const YEAR_COST_REQUESTS = 10;
const WARMUP = 3;
const DAY_MS = 86_400_000;
/** The catalogue's Homeflex time-of-use tariff (id fixed by migration 0004), in effect April 2025 to March 2026. */
const HOMEFLEX_TOU = 6;
const START = Date.UTC(2025, 3, 1);
/** South African time: a local day starts at 22:00 UTC the day before. */
const LOCAL_START = START - 2 * 3600_000;
const SOURCES = ['grid', 'solar', 'genset', 'inverter', 'load'] as const;

if (DAYS <= SMALL_DAYS || DAYS > 366) throw new Error('SCALE_DAYS must be above SCALE_SMALL_DAYS and at most 366');

const iso = (time: number) => new Date(time).toISOString();
const load = () => `load average ${loadavg()[0]!.toFixed(1)}`;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

type Unit = 'readings/s' | 'ms' | 'buffers';
type Figure = { name: string; unit: Unit; value: number };

const show = (unit: Unit, value: number) =>
  unit === 'ms' ? `${value.toFixed(1)} ms` : unit === 'buffers' ? fmt(value) : `${fmt(value)}/s`;

/** A database with the meters and the 5-source building, and the service on it. */
async function openSet(serverUrl: string, name: 'small' | 'big') {
  const database = await freshDatabase(serverUrl, `ums_scale_${name}`);
  const db = openPostgresDatabase(database.url);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  const close = async () => {
    await app.close();
    await db.close();
    await database.drop();
  };
  try {
    await migrate(db);
    const partitions = PARTITIONED ? await partitionByMonth(db, START, START + DAYS * DAY_MS) : 0;
    const api = apiClient(await app.listen({ port: 0, host: '127.0.0.1' }));
    await api.login({ email: 'scale@example.com', password: 'scale-password' }, true);
    const accountId: string = (await api.call('GET', '/api/v1/auth/organizations'))[0].id;

    const [block] = await db.query<{ id: number }>(
      `INSERT INTO building_blocks (account_id, name, building_type, address, city, state, postal_code, country)
       VALUES ($1, 'Scale site', 'COMMERCIAL', '1 Scale Road', 'Cape Town', 'Western Cape', 8001, 'ZA') RETURNING id`,
      [accountId],
    );
    const serials = Array.from({ length: METERS }, (_, i) => `SCALE-${String(i).padStart(4, '0')}`);
    await db.query(
      `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, interval_minutes)
       SELECT $1, $2, sn, 'ELECTRICITY', 30 FROM unnest($3::text[]) sn`,
      [accountId, block!.id, serials],
    );
    const meterIds = await db.query<{ id: number }>(
      'SELECT id FROM meters WHERE meter_sn = ANY($1) ORDER BY meter_sn',
      [serials.slice(0, SOURCES.length)],
    );
    // The building's 5 sources: the first 5 meters, each priced by a clone of Homeflex of its own.
    const sources: Record<string, number> = {};
    for (const [i, source] of SOURCES.entries()) {
      sources[`${source}_meter_id`] = meterIds[i]!.id;
      sources[`${source}_tariff_id`] = (
        await api.call('POST', `/api/v1/tariffs/catalogue/${HOMEFLEX_TOU}/clone`, { account_id: accountId })
      ).id;
    }
    await api.call('PUT', `/api/v1/building_blocks/${block!.id}/config`, { account_id: accountId, ...sources });
    return { name, db, api, accountId, blockId: block!.id, firstMeterId: meterIds[0]!.id, serials, partitions, close };
  } catch (error) {
    await close();
    throw error;
  }
}

type DataSet = Awaited<ReturnType<typeof openSet>>;

async function importFile(set: DataSet, file: string) {
  await set.db.query('CHECKPOINT');
  const started = performance.now();
  const { readings } = await importIntoDatabase(set.db, { accountId: set.accountId, file });
  return { readings, seconds: (performance.now() - started) / 1000 };
}

async function vacuumAnalyze(set: DataSet) {
  const started = performance.now();
  await set.db.query('VACUUM ANALYZE');
  return `VACUUM ANALYZE ${((performance.now() - started) / 1000).toFixed(1)} s`;
}

/** One round of every query figure of a set. */
async function queries(set: DataSet): Promise<Figure[]> {
  const { api, accountId, serials } = set;
  const figures: Figure[] = [];
  const sums = async (days: number) => {
    const body = { account_id: accountId, meter_sns: serials, start: iso(START), end: iso(START + days * DAY_MS) };
    const times = await sequentialTimes(1, SUM_RUNS, async () => {
      const results = await api.call<unknown[]>('POST', '/api/v1/timeseries/electricity/energy-sums', body);
      if (results.length !== METERS) throw new Error(`energy-sums: ${results.length} results`);
    });
    figures.push({ name: `energy-sums, ${METERS} meters over ${days} days, median`, unit: 'ms', value: median(times) });
  };
  await sums(SMALL_DAYS);
  await sums(DAYS);

  const profile = async (label: string, bucketMinutes: number, days: number) => {
    const query = {
      account_id: accountId,
      meter_sn: serials[0]!,
      bucket_minutes: bucketMinutes,
      start: iso(START),
      end: iso(START + days * DAY_MS),
    };
    const times = await sequentialTimes(WARMUP, PROFILE_REQUESTS, () =>
      api.get('/api/v1/timeseries/electricity/energy-profile', query),
    );
    figures.push({ name: `energy profile, ${label}, p50`, unit: 'ms', value: percentile(times, 50) });
    figures.push({ name: `energy profile, ${label}, p99`, unit: 'ms', value: percentile(times, 99) });
  };
  await profile(`one meter by day over ${DAYS} days`, 1440, DAYS);
  await profile(`one meter by 30 minutes over ${SMALL_DAYS} days`, 30, SMALL_DAYS);

  // Each request a period of its own (the end a minute earlier each time): priced, not a kept bill.
  let minutesBack = 0;
  const cost = async (days: number, requests: number) => {
    const times = await sequentialTimes(WARMUP, requests, async () => {
      minutesBack += 1;
      const end = LOCAL_START + days * DAY_MS - minutesBack * 60_000;
      const query = { account_id: accountId, start: iso(LOCAL_START), end: iso(end) };
      const cost = await api.get(`/api/v1/building_blocks/${set.blockId}/energy-cost`, query);
      const priced = cost.sources.filter((s: { priced: boolean }) => s.priced).length;
      if (priced !== SOURCES.length) throw new Error(`energy-cost: ${priced} sources priced`);
    });
    figures.push({
      name: `energy cost, building of 5 sources, ${days} local days, p50`,
      unit: 'ms',
      value: percentile(times, 50),
    });
  };
  await cost(SMALL_DAYS, MONTH_COST_REQUESTS);
  await cost(DAYS, YEAR_COST_REQUESTS);

  // What the database does for one meter's reads of the partitionable tables.
  const reads = [
    { label: `${SMALL_DAYS} days of readings`, table: 'readings', time: 'ts', value: 'import_kwh', days: SMALL_DAYS },
    ...[SMALL_DAYS, DAYS].map((days) => ({
      label: `${days} days of hourly rollups`,
      table: 'readings_hourly',
      time: 'bucket_start',
      value: 'import_uwh',
      days,
    })),
  ];
  for (const read of reads) {
    const { buffers, ms } = await explainRead(
      set.db,
      `SELECT date_bin('30 minutes', ${read.time}, $2::timestamptz), sum(${read.value}) FROM ${read.table}
       WHERE meter_id = $1 AND ${read.time} >= $2::timestamptz AND ${read.time} < $3::timestamptz GROUP BY 1`,
      [set.firstMeterId, iso(START), iso(START + read.days * DAY_MS)],
    );
    figures.push({ name: `database, one meter's ${read.label}: buffers`, unit: 'buffers', value: buffers });
    figures.push({ name: `database, one meter's ${read.label}: plan + run`, unit: 'ms', value: ms });
  }
  return figures;
}

async function main() {
  const serverUrl = requireDatabaseUrl();
  const dir = await mkdtemp(join(tmpdir(), 'bench-scale-'));
  const sets: DataSet[] = [];
  try {
    const small = await openSet(serverUrl, 'small');
    sets.push(small);
    const big = await openSet(serverUrl, 'big');
    sets.push(big);
    const pgVersion = (await small.db.query<{ v: string }>('SELECT current_setting($$server_version$$) AS v'))[0]!.v;
    console.log(
      `Scale benchmark: ${machine()}, PostgreSQL ${pgVersion}; ${METERS} meters, ${SMALL_DAYS} against ${DAYS} days; readings ${PARTITIONED ? `and hourly rollups in ${small.partitions} monthly partitions` : 'not partitioned'}; ${load()}`,
    );

    // Imports: the small file into emptied tables twice, the big set, the small file once more.
    const smallFile = join(dir, 'small.csv');
    await writeReadingsCsv(smallFile, small.serials, START, START + SMALL_DAYS * DAY_MS);
    const smallRates: number[] = [];
    const importSmall = async () => {
      await small.db.query('TRUNCATE readings, readings_hourly, readings_daily');
      const { readings, seconds } = await importFile(small, smallFile);
      smallRates.push(readings / seconds);
    };
    await importSmall();
    await importSmall();
    const split = START + (DAYS - SMALL_DAYS) * DAY_MS;
    const parts = [];
    for (const [name, from, to] of [
      ['first.csv', START, split],
      ['last.csv', split, START + DAYS * DAY_MS],
    ] as const) {
      const file = join(dir, name);
      await writeReadingsCsv(file, big.serials, from, to);
      parts.push(await importFile(big, file));
      await rm(file);
    }
    await importSmall();
    console.log(
      `small set: ${fmt(METERS * SMALL_DAYS * 48)} readings (${fmt(statSync(smallFile).size / 2 ** 20)} MiB CSV), imports ${smallRates.map(fmt).join(', ')} readings/s; ${await vacuumAnalyze(small)}`,
    );
    await rm(smallFile);
    const [first, last] = parts as [(typeof parts)[number], (typeof parts)[number]];
    const sizes = await big.db.query<{ name: string; size: string }>(
      `SELECT t AS name, pg_size_pretty(pg_total_relation_size(t::regclass)
         + coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(t::regclass)), 0)) AS size
       FROM unnest(ARRAY['readings', 'readings_hourly', 'readings_daily']) t`,
    );
    console.log(
      `big set: ${fmt(first.readings + last.readings)} readings, imports ${fmt(first.readings / first.seconds)} then ${fmt(last.readings / last.seconds)} readings/s; ${await vacuumAnalyze(big)}; ${sizes.map((s) => `${s.name} ${s.size}`).join(', ')}; ${load()}`,
    );
    const figures = new Map<string, { unit: Unit; small: number[]; big: number[] }>();
    const record = (set: 'small' | 'big', list: Figure[]) => {
      for (const f of list) {
        const entry = figures.get(f.name) ?? { unit: f.unit, small: [], big: [] };
        entry[set].push(f.value);
        figures.set(f.name, entry);
      }
    };
    const whole = 'import of the whole set (small: median)';
    const file = `import of a ${SMALL_DAYS}-day file (big: on top of the other days)`;
    record('small', [
      { name: whole, unit: 'readings/s', value: median(smallRates) },
      { name: file, unit: 'readings/s', value: median(smallRates) },
    ]);
    record('big', [
      { name: whole, unit: 'readings/s', value: (first.readings + last.readings) / (first.seconds + last.seconds) },
      { name: file, unit: 'readings/s', value: last.readings / last.seconds },
    ]);

    // An untimed round of the small set first (the code's first runs), then the rounds.
    await queries(small);
    for (let round = 0; round < ROUNDS; round++) {
      for (const set of round % 2 === 0 ? [small, big] : [big, small]) record(set.name, await queries(set));
    }
    console.log(`measured; ${load()}`);

    const range = (unit: Unit, xs: number[]) =>
      xs.length > 1 ? ` (${show(unit, Math.min(...xs))}–${show(unit, Math.max(...xs))})` : '';
    console.log(`\n${'figure, median of rounds (range)'.padEnd(68)} | small | big | big/small`);
    for (const [name, { unit, small: s, big: b }] of figures) {
      console.log(
        `${name.padEnd(68)} | ${show(unit, median(s))}${range(unit, s)} | ${show(unit, median(b))}${range(unit, b)} | ${(median(b) / median(s)).toFixed(2)}`,
      );
    }
  } finally {
    for (const set of sets) await set.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
