/** What the flood benchmarks share: the seeded service, the demo stretched to a year, open-loop measuring clients, summaries. */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { COMBINE_ROLLUPS, ROLLUP_COLUMNS, ROLLUP_SOURCES } from '../src/modules/timeseries/rollup-sql.ts';
import { freshDatabase, percentile, requireDatabaseUrl, startProcess, stopProcess } from './support.ts';

/**
 * The service, seeded with the demo, on a database of its own at port, with a SQL connection to
 * that database; stop() ends all three. nodeArgs go before the server's script (e.g. --cpu-prof).
 */
export async function startSeededService(databasePrefix: string, port: string, nodeArgs: string[] = []) {
  const database = await freshDatabase(requireDatabaseUrl(), databasePrefix);
  const service = await startProcess(
    [...nodeArgs, 'src/server.ts'],
    { DATABASE_URL: database.url, PORT: port, SEED_DEMO: 'true', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' },
    `http://127.0.0.1:${port}/readyz`,
  ).catch(async (error) => {
    await database.drop();
    throw error;
  });
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  return {
    sql,
    async stop() {
      await sql.end();
      await stopProcess(service);
      await database.drop();
    },
  };
}

/** Rebuilds the hourly and daily rollups of the organization's meters from their readings, as an ingest keeps them. */
export async function rebuildRollups(sql: pg.Client, accountId: string): Promise<void> {
  for (const [table, unit] of [
    ['readings_hourly', 'hour'],
    ['readings_daily', 'day'],
  ] as const) {
    await sql.query(`DELETE FROM ${table} WHERE meter_id IN (SELECT id FROM meters WHERE account_id = $1)`, [
      accountId,
    ]);
    await sql.query(
      `INSERT INTO ${table} (${ROLLUP_COLUMNS})
       SELECT meter_id, date_trunc('${unit}', bucket_start, 'UTC'), ${COMBINE_ROLLUPS}
       FROM (${ROLLUP_SOURCES.raw.select} WHERE meter_id IN (SELECT id FROM meters WHERE account_id = $1)) r
       GROUP BY 1, 2`,
      [accountId],
    );
  }
}

/**
 * Stretches the organization's meters' readings to a year (copies shifted back by 90, 180 and 270
 * days, written with SQL) and rebuilds their rollups. Returns how many readings were added.
 */
export async function stretchToAYear(sql: pg.Client, accountId: string): Promise<number> {
  const stretched = await sql.query(
    `INSERT INTO readings (meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva)
     SELECT r.meter_id, r.ts - k * interval '90 days', r.import_kwh, r.export_kwh, r.kvarh, r.power_kw, r.kva
     FROM readings r JOIN meters m ON m.id = r.meter_id AND m.account_id = $1, generate_series(1, 3) k
     ON CONFLICT DO NOTHING`,
    [accountId],
  );
  await rebuildRollups(sql, accountId);
  await sql.query('ANALYZE readings, readings_hourly, readings_daily');
  return stretched.rowCount ?? 0;
}

/** A GET on its own keep-alive connections (one client), resolving with the latency in ms and the status. */
function timedGet(url: string, token: string, agent: http.Agent): Promise<{ ms: number; status: number }> {
  return new Promise((resolve, reject) => {
    const sent = performance.now();
    const req = http.get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - sent, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
  });
}

/**
 * autocannon's setupRequest giving each request of a flood of costs a period of its own (the service
 * keeps bills: repeating one period would measure the kept answer, not the pricing).
 */
export const VARY_PERIOD = fileURLToPath(new URL('./vary-period.cjs', import.meta.url));

/** autocannon's setupRequest alternating a tariff update's tax rate, so that every update changes the row. */
export const ALTERNATE_TAX_RATE = fileURLToPath(new URL('./alternate-tax-rate.cjs', import.meta.url));

/** autocannon's setupRequest giving each body of the flood of objects keys of its own. */
export const FRESH_KEYS = fileURLToPath(new URL('./fresh-keys.cjs', import.meta.url));

/** autocannon's setupRequest alternating an invoice check's tolerance, so that every check writes its outcome. */
export const FORWARDED_FOR = fileURLToPath(new URL('./forwarded-for.cjs', import.meta.url));
export const VARY_TOLERANCE = fileURLToPath(new URL('./vary-tolerance.cjs', import.meta.url));

/**
 * GETs of url (or of url(i) for the i-th request) at a fixed rate whatever the answers' latency
 * (open loop), as one client with its own keep-alive connections; latencies in ms, sorted, and statuses.
 */
export async function atFixedRate(
  url: string | ((i: number) => string),
  token: string,
  seconds: number,
  ratePerS: number,
) {
  const agent = new http.Agent({ keepAlive: true });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const pending: Promise<void>[] = [];
  const began = performance.now();
  for (let i = 0; i < seconds * ratePerS; i++) {
    const wait = began + (i * 1000) / ratePerS - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      timedGet(typeof url === 'string' ? url : url(i), token, agent).then(({ ms, status }) => {
        latencies.push(ms);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { latencies, statuses };
}

export const describeStatuses = (statuses: Map<number, number> | Record<string, { count: number }>) =>
  Object.entries(statuses instanceof Map ? Object.fromEntries(statuses) : statuses)
    .map(([status, n]) => `${status}: ${typeof n === 'number' ? n : n.count}`)
    .join(', ');

export const describeLatency = (ms: number[]) =>
  `p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms (${ms.length} requests)`;

/** How many answers of autocannon's status counts were 500. */
export const fiveHundreds = (statusCodeStats: Record<string, { count: number }>) => statusCodeStats['500']?.count ?? 0;

/** The service's event loop delay (p99 and max, ms) since the last scrape of its /metrics. */
export async function eventLoopDelay(base: string): Promise<string> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const seconds = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  const ms = (name: string) => (seconds(name) * 1000).toFixed(0);
  return `p99 ${ms('nodejs_eventloop_lag_p99_seconds')} ms, max ${ms('nodejs_eventloop_lag_max_seconds')} ms`;
}
