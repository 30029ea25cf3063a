/**
 * Electricity timeseries benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/timeseries.ts
 * Creates the database ums_bench on that server (dropped at the end; the role must be allowed to
 * create databases and to run CHECKPOINT, as postgres is) and prints:
 * - bulk import (the import command's path, COPY + upsert + rollups) of 1,000 meters x 30 days
 *   of 30-minute readings (1.44 M), three runs into emptied tables, and HTTP ingest of 10 meters x
 *   1 year, three rounds (after one untimed request): the median and range of each;
 * - energy-sums for the 1,000 meters over the 30 days through the HTTP API (a real socket)
 *   against a plain SELECT ... GROUP BY over the raw readings, asserting identical numbers;
 * - energy-profile latency (p50, p99) of one meter holding a year of readings.
 */

import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { importIntoDatabase } from '../src/modules/timeseries/import/import-into-database.ts';
import { median, values, writeReadingsCsv } from './support.ts';

const BENCH_DATABASE = 'ums_bench';
const METERS = 1_000;
const DAYS = 30;
const HTTP_METERS = 10;
const HTTP_ROUNDS = 3;
const IMPORT_RUNS = 3;
const HTTP_CONCURRENCY = 2;
/** A meter whose request is sent before the timed ones, so that they do not pay for the first run of the code. */
const WARMUP_SERIAL = 'HTTP-WARMUP';
const PROFILE_REQUESTS = 200;
const SUM_RUNS = 20;
const START = Date.UTC(2026, 0, 1);
const INTERVAL_MS = 30 * 60_000;
const DAY_MS = 86_400_000;

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  console.error('DATABASE_URL is required (a PostgreSQL server on which the database ums_bench may be created)');
  process.exit(2);
}

const iso = (time: number) => new Date(time).toISOString();
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.ceil((p / 100) * xs.length) - 1]!;
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => `${n.toFixed(1)} ms`;
/** Rates of several runs: their median, and the lowest and highest. */
const rates = (xs: number[]) =>
  `median ${fmt(median(xs))} readings/s of ${xs.length} runs (${fmt(Math.min(...xs))} to ${fmt(Math.max(...xs))})`;

async function adminQuery(sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const benchUrl = new URL(serverUrl!);
  benchUrl.pathname = `/${BENCH_DATABASE}`;
  await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
  await adminQuery(`CREATE DATABASE ${BENCH_DATABASE}`);
  const db = openPostgresDatabase(benchUrl.toString());
  const dir = await mkdtemp(join(tmpdir(), 'bench-timeseries-'));
  const config = loadConfig({ DATABASE_URL: benchUrl.toString(), LOG_LEVEL: 'silent', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  try {
    await migrate(db);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const api = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await fetch(`${address}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as { data: any };
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };

    const credentials = { email: 'bench@example.com', password: 'bench-password' };
    await api('POST', '/api/v1/auth/signup', credentials);
    const token: string = (await api('POST', '/api/v1/auth/login', credentials)).access_token;
    const accountId: string = (await api('GET', '/api/v1/auth/organizations', undefined, token))[0].id;
    const get = (path: string, query: Record<string, string | number>) =>
      api(
        'GET',
        `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
        undefined,
        token,
      );

    const [block] = await db.query<{ id: number }>(
      `INSERT INTO building_blocks (account_id, name, building_type, address, city, state, postal_code, country)
       VALUES ($1, 'Bench site', 'COMMERCIAL', '1 Bench Road', 'Cape Town', 'Western Cape', 8001, 'ZA') RETURNING id`,
      [accountId],
    );
    const serials = Array.from({ length: METERS }, (_, i) => `BENCH-${String(i).padStart(4, '0')}`);
    const httpSerials = Array.from({ length: HTTP_METERS * HTTP_ROUNDS }, (_, i) => `HTTP-${i}`);
    await db.query(
      `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, interval_minutes)
       SELECT $1, $2, sn, 'ELECTRICITY', 30 FROM unnest($3::text[]) sn`,
      [accountId, block!.id, [...serials, ...httpSerials, WARMUP_SERIAL]],
    );

    console.log(
      `Timeseries benchmark: PostgreSQL ${(await db.query<{ v: string }>('SELECT current_setting($$server_version$$) AS v'))[0]!.v}, Node ${process.version}`,
    );

    // 1. Bulk import through the import command's path, IMPORT_RUNS times into emptied tables.
    const csv = join(dir, 'readings.csv');
    await writeReadingsCsv(csv, serials, START, START + DAYS * DAY_MS);
    const importRates: number[] = [];
    let imported = { readings: 0 };
    let rss = { before: 0, peak: 0 };
    for (let run = 0; run < IMPORT_RUNS; run++) {
      await db.query('TRUNCATE readings, readings_hourly, readings_daily');
      // Each run starts without the previous run's writes still to flush.
      await db.query('CHECKPOINT');
      rss = { before: process.memoryUsage().rss, peak: process.memoryUsage().rss };
      const started = performance.now();
      imported = await importIntoDatabase(db, {
        accountId,
        file: csv,
        onProgress: () => {
          rss.peak = Math.max(rss.peak, process.memoryUsage().rss);
        },
      });
      importRates.push(imported.readings / ((performance.now() - started) / 1000));
    }
    console.log(
      `import: ${fmt(imported.readings)} readings (${METERS} meters x ${DAYS} days, ${fmt(statSync(csv).size / 2 ** 20)} MiB CSV): ${rates(importRates)}; RSS in the last run ${fmt(rss.before / 2 ** 20)} MiB before, ${fmt(rss.peak / 2 ** 20)} MiB at most`,
    );

    // 2. HTTP ingest, HTTP_ROUNDS times: requests of one meter-year each (17,520 readings), their
    // bodies serialised beforehand (the client's work is not the server's), after one untimed request.
    const next = values(11);
    const body = (meter_sn: string) =>
      JSON.stringify({
        account_id: accountId,
        meter_sn,
        readings: Array.from({ length: 365 * 48 }, (_, i) => ({
          ts: iso(START + i * INTERVAL_MS),
          import_kwh: next(25),
          export_kwh: next(3),
          kvarh: next(10),
        })),
      });
    const post = async (json: string) => {
      const res = await fetch(`${address}/api/v1/timeseries/electricity/readings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: json,
      });
      if (!res.ok) throw new Error(`ingest: ${res.status} ${await res.text()}`);
    };
    await post(body(WARMUP_SERIAL));
    const httpRates: number[] = [];
    for (let round = 0; round < HTTP_ROUNDS; round++) {
      const queue = httpSerials.slice(round * HTTP_METERS, (round + 1) * HTTP_METERS).map(body);
      const started = performance.now();
      await Promise.all(
        Array.from({ length: HTTP_CONCURRENCY }, async () => {
          for (let json = queue.shift(); json; json = queue.shift()) await post(json);
        }),
      );
      httpRates.push((HTTP_METERS * 365 * 48) / ((performance.now() - started) / 1000));
    }
    console.log(
      `http ingest: ${fmt(HTTP_METERS * 365 * 48)} readings per round (${HTTP_METERS} requests of ${fmt(365 * 48)}, ${HTTP_CONCURRENCY} at a time): ${rates(httpRates)}`,
    );
    await db.query('VACUUM ANALYZE');

    // 3. energy-sums for every bulk meter over the 30 days: API against a plain GROUP BY.
    const range = { start: iso(START), end: iso(START + DAYS * DAY_MS) };
    const sumsBody = { account_id: accountId, meter_sns: serials, ...range };
    let apiSums: any[] = [];
    const apiTimes: number[] = [];
    for (let run = 0; run < SUM_RUNS + 2; run++) {
      const started = performance.now();
      apiSums = await api('POST', '/api/v1/timeseries/electricity/energy-sums', sumsBody, token);
      if (run >= 2) apiTimes.push(performance.now() - started);
    }
    type RawSum = {
      meter_sn: string;
      import_kwh: number;
      export_kwh: number;
      kvarh: number;
      max_kva: number;
      readings: number;
    };
    let rawSums: RawSum[] = [];
    const rawTimes: number[] = [];
    for (let run = 0; run < SUM_RUNS + 2; run++) {
      const started = performance.now();
      rawSums = await db.query<RawSum>(
        `SELECT m.meter_sn, sum(r.import_kwh) AS import_kwh, sum(r.export_kwh) AS export_kwh, sum(r.kvarh) AS kvarh,
           max(r.kva) AS max_kva, count(*)::int AS readings
         FROM readings r JOIN meters m ON m.id = r.meter_id
         WHERE m.account_id = $1 AND m.meter_sn LIKE 'BENCH-%' AND r.ts >= $2 AND r.ts < $3
         GROUP BY m.meter_sn`,
        [accountId, range.start, range.end],
      );
      if (run >= 2) rawTimes.push(performance.now() - started);
    }
    const raw = new Map(rawSums.map((r) => [r.meter_sn, r]));
    const mismatches = apiSums.filter((s) => {
      const r = raw.get(s.meter_sn)!;
      const expected = {
        meter_sn: s.meter_sn,
        ...range,
        import_kwh: round6(r.import_kwh),
        export_kwh: round6(r.export_kwh),
        net_kwh: round6(r.import_kwh - r.export_kwh),
        kvarh: round6(r.kvarh),
        max_kva: round6(r.max_kva),
        readings: r.readings,
      };
      return JSON.stringify(s) !== JSON.stringify(expected);
    });
    const apiMedian = median(apiTimes);
    const rawMedian = median(rawTimes);
    console.log(
      `energy-sums, ${METERS} meters x ${DAYS} days: API ${ms(apiMedian)} (median of ${SUM_RUNS}, HTTP over 127.0.0.1) vs raw GROUP BY ${ms(rawMedian)} = ${(apiMedian / rawMedian).toFixed(3)} of the raw time; ${apiSums.length} results, ${mismatches.length} differing`,
    );
    console.log(`  first result: ${JSON.stringify(apiSums[0])}`);
    if (apiSums.length !== METERS || mismatches.length > 0) {
      throw new Error(`energy-sums differ from the raw query: ${JSON.stringify(mismatches.slice(0, 3))}`);
    }

    // 4. energy-profile latency for one meter holding a year of readings.
    const profiles = [
      // 30-minute buckets: the widest range allowed (10,000 buckets, about 208 days).
      { bucket_minutes: 30, start: iso(START), end: iso(START + 10_000 * INTERVAL_MS) },
      { bucket_minutes: 1440, start: iso(START), end: iso(START + 365 * DAY_MS) },
    ];
    for (const profile of profiles) {
      const query = { account_id: accountId, meter_sn: httpSerials[0]!, ...profile };
      const times: number[] = [];
      let buckets = 0;
      for (let run = 0; run < PROFILE_REQUESTS + 5; run++) {
        const started = performance.now();
        buckets = (await get('/api/v1/timeseries/electricity/energy-profile', query)).length;
        if (run >= 5) times.push(performance.now() - started);
      }
      console.log(
        `energy-profile, ${profile.bucket_minutes}-minute buckets over ${((Date.parse(profile.end) - Date.parse(profile.start)) / DAY_MS).toFixed(1)} days (${buckets} buckets): p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))} (${PROFILE_REQUESTS} requests)`,
      );
    }
  } finally {
    await app.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
    await adminQuery(`DROP DATABASE IF EXISTS ${BENCH_DATABASE} WITH (FORCE)`);
  }
}

await main();
