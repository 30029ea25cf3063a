/**
 * Scale benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/scale.ts
 * Measures the same things on a small set (SCALE_METERS meters x SCALE_SMALL_DAYS days of
 * 30-minute readings: 1,000 x 30 = 1.44 M by default, the set of bench/timeseries.ts) and on a big
 * one (the same meters x SCALE_DAYS days: 1,000 x 365 = 17.5 M), and prints each figure's ratio
 * big / small:
 * - import through the import command's path (importIntoDatabase): the small file three times into
 *   emptied tables; the big set as the file of its first SCALE_DAYS - SCALE_SMALL_DAYS days into
 *   emptied tables, then the file of its last SCALE_SMALL_DAYS days (as many readings as the small
 *   file) on top of them;
 * - energy-sums of every meter over the first SCALE_SMALL_DAYS days and over SCALE_DAYS days;
 * - one meter's energy profile by day over SCALE_DAYS days and by 30 minutes over the first month;
 * - the energy cost of a building with 5 sources (grid, solar, genset, inverter and load meters,
 *   each with a clone of the catalogue's Homeflex time-of-use tariff) over its first local month
 *   and over SCALE_DAYS days from there.
 * Every request goes through the HTTP API on a real socket, one at a time. SCALE_PARTITIONED=month
 * runs the same on readings and hourly rollups partitioned by month (bench/partitioning.ts).
 * Creates a database ums_scale_<time> on that server, dropped at the end, and writes the CSV files
 * (about 1 GB for the big set) to the temporary directory, each removed once imported.
 */
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import type { Database } from '../src/db/types.ts';
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
const SMALL_IMPORT_RUNS = 3;
const SUM_RUNS = 20;
const PROFILE_REQUESTS = 200;
const MONTH_COST_REQUESTS = 100;
const YEAR_COST_REQUESTS = 30;
const WARMUP = 5;
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

type Figure = { name: string; unit: 'readings/s' | 'ms' | 'buffers'; value: number; note?: string };

/**
 * The import rates of a set: of the whole set into empty tables, and of a SMALL_DAYS-day file (the
 * small set's, into empty tables; the big set's last days, on top of the days before).
 */
function importFigures(whole: number, file: number): Figure[] {
  return [
    { name: 'import of the whole set', unit: 'readings/s', value: whole },
    { name: `import of a ${SMALL_DAYS}-day file (big: on top of the other days)`, unit: 'readings/s', value: file },
  ];
}

async function importFile(db: Database, accountId: string, file: string) {
  await db.query('CHECKPOINT');
  const started = performance.now();
  const { readings } = await importIntoDatabase(db, { accountId, file });
  return { readings, seconds: (performance.now() - started) / 1000 };
}

async function main() {
  const database = await freshDatabase(requireDatabaseUrl(), 'ums_scale');
  const db = openPostgresDatabase(database.url);
  const dir = await mkdtemp(join(tmpdir(), 'bench-scale-'));
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
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

    const pgVersion = (await db.query<{ v: string }>('SELECT current_setting($$server_version$$) AS v'))[0]!.v;
    console.log(
      `Scale benchmark: ${machine()}, PostgreSQL ${pgVersion}; ${METERS} meters, ${SMALL_DAYS} against ${DAYS} days; readings ${PARTITIONED ? `and hourly rollups in ${partitions} monthly partitions` : 'not partitioned'}; ${load()}`,
    );

    /** Every query figure of the set in the database now. */
    async function queries(): Promise<Figure[]> {
      const figures: Figure[] = [];
      const sums = async (days: number) => {
        const body = { account_id: accountId, meter_sns: serials, start: iso(START), end: iso(START + days * DAY_MS) };
        const times = await sequentialTimes(2, SUM_RUNS, async () => {
          const results = await api.call<unknown[]>('POST', '/api/v1/timeseries/electricity/energy-sums', body);
          if (results.length !== METERS) throw new Error(`energy-sums: ${results.length} results`);
        });
        figures.push({
          name: `energy-sums, ${METERS} meters over ${days} days, median`,
          unit: 'ms',
          value: median(times),
        });
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

      const cost = async (label: string, days: number, requests: number) => {
        const query = { account_id: accountId, start: iso(LOCAL_START), end: iso(LOCAL_START + days * DAY_MS) };
        let totals = {};
        const times = await sequentialTimes(WARMUP, requests, async () => {
          const cost = await api.get(`/api/v1/building_blocks/${block!.id}/energy-cost`, query);
          const priced = cost.sources.filter((s: { priced: boolean }) => s.priced).length;
          if (priced !== SOURCES.length) throw new Error(`energy-cost: ${priced} sources priced`);
          totals = cost.totals;
        });
        figures.push({
          name: `energy cost, building of 5 sources, ${label}, p50`,
          unit: 'ms',
          value: percentile(times, 50),
          note: `totals ${JSON.stringify(totals)}`,
        });
      };
      await cost(`${SMALL_DAYS} local days`, SMALL_DAYS, MONTH_COST_REQUESTS);
      await cost(`${DAYS} local days`, DAYS, YEAR_COST_REQUESTS);

      // What the database does for one meter's reads of the partitionable tables, whatever the machine's load.
      const reads = [
        {
          name: `${SMALL_DAYS} days of readings by 30 minutes`,
          table: 'readings',
          time: 'ts',
          value: 'import_kwh',
          days: SMALL_DAYS,
        },
        {
          name: `${SMALL_DAYS} days of hourly rollups`,
          table: 'readings_hourly',
          time: 'bucket_start',
          value: 'import_uwh',
          days: SMALL_DAYS,
        },
        {
          name: `${DAYS} days of hourly rollups`,
          table: 'readings_hourly',
          time: 'bucket_start',
          value: 'import_uwh',
          days: DAYS,
        },
      ];
      for (const read of reads) {
        const { buffers, ms } = await explainRead(
          db,
          `SELECT date_bin('30 minutes', ${read.time}, $2::timestamptz), sum(${read.value}) FROM ${read.table}
           WHERE meter_id = $1 AND ${read.time} >= $2::timestamptz AND ${read.time} < $3::timestamptz GROUP BY 1`,
          [meterIds[0]!.id, iso(START), iso(START + read.days * DAY_MS)],
        );
        figures.push({ name: `database, one meter's ${read.name}: buffers`, unit: 'buffers', value: buffers });
        figures.push({ name: `database, one meter's ${read.name}: plan + run`, unit: 'ms', value: ms });
      }
      return figures;
    }

    const analyze = async () => {
      const started = performance.now();
      await db.query('VACUUM ANALYZE');
      return (performance.now() - started) / 1000;
    };

    // The small set: its file imported SMALL_IMPORT_RUNS times into emptied tables.
    const smallFile = join(dir, 'small.csv');
    await writeReadingsCsv(smallFile, serials, START, START + SMALL_DAYS * DAY_MS);
    const smallRates: number[] = [];
    let smallReadings = 0;
    for (let run = 0; run < SMALL_IMPORT_RUNS; run++) {
      await db.query('TRUNCATE readings, readings_hourly, readings_daily');
      const { readings, seconds } = await importFile(db, accountId, smallFile);
      smallReadings = readings;
      smallRates.push(readings / seconds);
    }
    console.log(
      `small set: ${fmt(smallReadings)} readings (${fmt(statSync(smallFile).size / 2 ** 20)} MiB CSV), imports ${smallRates.map(fmt).join(', ')} readings/s; VACUUM ANALYZE ${(await analyze()).toFixed(1)} s; ${load()}`,
    );
    await rm(smallFile);
    // One untimed pass first: the small set is measured first, and would pay for the code's first runs.
    await queries();
    const small = [...importFigures(median(smallRates), median(smallRates)), ...(await queries())];

    // The big set: the first DAYS - SMALL_DAYS days into emptied tables, then the last SMALL_DAYS days.
    await db.query('TRUNCATE readings, readings_hourly, readings_daily');
    const split = START + (DAYS - SMALL_DAYS) * DAY_MS;
    const parts = [];
    for (const [name, from, to] of [
      ['first.csv', START, split],
      ['last.csv', split, START + DAYS * DAY_MS],
    ] as const) {
      const file = join(dir, name);
      await writeReadingsCsv(file, serials, from, to);
      parts.push(await importFile(db, accountId, file));
      await rm(file);
    }
    const [first, last] = parts as [(typeof parts)[number], (typeof parts)[number]];
    const bigReadings = first.readings + last.readings;
    const sizes = await db.query<{ name: string; size: string }>(
      `SELECT t AS name, pg_size_pretty(pg_total_relation_size(t::regclass)
         + coalesce((SELECT sum(pg_total_relation_size(relid)) FROM pg_partition_tree(t::regclass)), 0)) AS size
       FROM unnest(ARRAY['readings', 'readings_hourly', 'readings_daily']) t`,
    );
    console.log(
      `big set: ${fmt(bigReadings)} readings, imports ${fmt(first.readings / first.seconds)} then ${fmt(last.readings / last.seconds)} readings/s; VACUUM ANALYZE ${(await analyze()).toFixed(1)} s; ${sizes.map((s) => `${s.name} ${s.size}`).join(', ')}; ${load()}`,
    );
    const big = [
      ...importFigures(bigReadings / (first.seconds + last.seconds), last.readings / last.seconds),
      ...(await queries()),
    ];

    console.log(`measured; ${load()}`);
    console.log(`\n${'figure'.padEnd(72)} ${'small'.padStart(12)} ${'big'.padStart(12)}  big/small`);
    for (const [i, s] of small.entries()) {
      const b = big[i]!;
      const value = (f: Figure) =>
        f.unit === 'ms' ? `${f.value.toFixed(1)} ms` : f.unit === 'buffers' ? fmt(f.value) : `${fmt(f.value)}/s`;
      console.log(
        `${s.name.padEnd(72)} ${value(s).padStart(12)} ${value(b).padStart(12)}  ${(b.value / s.value).toFixed(2)}`,
      );
      if (s.note) console.log(`  small: ${s.note}; big: ${b.note}`);
    }
  } finally {
    await app.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
    await database.drop();
  }
}

await main();
