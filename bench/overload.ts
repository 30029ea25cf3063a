/**
 * Overload benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/overload.ts [seconds]
 * Creates a database of its own on that server (dropped at the end; the role must be allowed to
 * create databases) and starts the service, seeded with the demo, as a process of its own. The
 * demo meters' 90 days of readings are stretched to a year (copies shifted back by 90, 180 and 270
 * days, written with SQL), and their hourly and daily rollups rebuilt from them, as an ingest keeps
 * them (bills are priced from the hourly rollups and the readings of partial hours). Then
 * autocannon floods the demo building's energy cost over the last 365 days at 50 connections
 * while another organization, as a client of its own, reads one of its tariffs (served from the
 * read cache) and its building blocks list (from the database), each at a fixed modest rate.
 * Prints the flood's answers by status (no 500 allowed), the other organization's latencies alone
 * and during the flood, and the service's event loop delay. The service's settings
 * (EXPENSIVE_CONCURRENCY_PER_ORG, STATEMENT_TIMEOUT_S, ...) pass through from the environment.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import pg from 'pg';
import { COMBINE_ROLLUPS, ROLLUP_COLUMNS, ROLLUP_SOURCES } from '../src/modules/timeseries/rollup-sql.ts';
import { freshDatabase, machine, percentile, requireDatabaseUrl, startProcess, stopProcess } from './support.ts';

const SECONDS = Number(process.argv[2] ?? 30);
const FLOOD_CONNECTIONS = 50;
const OTHER_RATE_PER_S = 25;
const PORT = '3903';
const base = `http://127.0.0.1:${PORT}`;

async function api<T = any>(path: string, init: { method?: string; token?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });
  const body = (await res.json()) as { data: T };
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

async function login(email: string, password: string): Promise<string> {
  return (await api<{ access_token: string }>('/api/v1/auth/login', { method: 'POST', body: { email, password } }))
    .access_token;
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
 * Requests at a fixed rate whatever the answers' latency (open loop), as one client with its own
 * keep-alive connections; latencies in ms, sorted, and statuses.
 */
async function atFixedRate(url: string, token: string, seconds: number) {
  const agent = new http.Agent({ keepAlive: true });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const pending: Promise<void>[] = [];
  const began = performance.now();
  for (let i = 0; i < seconds * OTHER_RATE_PER_S; i++) {
    const wait = began + (i * 1000) / OTHER_RATE_PER_S - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      timedGet(url, token, agent).then(({ ms, status }) => {
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

const describeStatuses = (statuses: Map<number, number> | Record<string, { count: number }>) =>
  Object.entries(statuses instanceof Map ? Object.fromEntries(statuses) : statuses)
    .map(([status, n]) => `${status}: ${typeof n === 'number' ? n : n.count}`)
    .join(', ');

const describeLatency = (ms: number[]) =>
  `p50 ${percentile(ms, 50).toFixed(1)} ms, p99 ${percentile(ms, 99).toFixed(1)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms (${ms.length} requests)`;

/** The service's event loop delay (p99 and max, ms) since the last scrape of /metrics. */
async function eventLoopDelay(): Promise<string> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const seconds = (name: string) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? Number.NaN);
  const ms = (name: string) => (seconds(name) * 1000).toFixed(0);
  return `p99 ${ms('nodejs_eventloop_lag_p99_seconds')} ms, max ${ms('nodejs_eventloop_lag_max_seconds')} ms`;
}

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_overload');
const service = await startProcess(
  ['src/server.ts'],
  { DATABASE_URL: database.url, PORT, SEED_DEMO: 'true', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' },
  `${base}/readyz`,
).catch(async (error) => {
  await database.drop();
  throw error;
});
const sql = new pg.Client({ connectionString: database.url });
await sql.connect();
try {
  const demoToken = await login('demo@example.com', 'demo-password');
  const orgs = await api<{ id: string; is_personal_account: boolean }[]>('/api/v1/auth/organizations', {
    token: demoToken,
  });
  const demoAccount = orgs.find((o) => !o.is_personal_account)!.id;
  const {
    rows: [config],
  } = await sql.query<{ building_block_id: number }>(
    'SELECT building_block_id FROM energy_dashboard_configs WHERE account_id = $1',
    [demoAccount],
  );
  const stretched = await sql.query(
    `INSERT INTO readings (meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva)
     SELECT r.meter_id, r.ts - k * interval '90 days', r.import_kwh, r.export_kwh, r.kvarh, r.power_kw, r.kva
     FROM readings r JOIN meters m ON m.id = r.meter_id AND m.account_id = $1, generate_series(1, 3) k
     ON CONFLICT DO NOTHING`,
    [demoAccount],
  );
  for (const [table, unit] of [
    ['readings_hourly', 'hour'],
    ['readings_daily', 'day'],
  ] as const) {
    await sql.query(`DELETE FROM ${table} WHERE meter_id IN (SELECT id FROM meters WHERE account_id = $1)`, [
      demoAccount,
    ]);
    await sql.query(
      `INSERT INTO ${table} (${ROLLUP_COLUMNS})
       SELECT meter_id, date_trunc('${unit}', bucket_start, 'UTC'), ${COMBINE_ROLLUPS}
       FROM (${ROLLUP_SOURCES.raw.select} WHERE meter_id IN (SELECT id FROM meters WHERE account_id = $1)) r
       GROUP BY 1, 2`,
      [demoAccount],
    );
  }
  await sql.query('ANALYZE readings, readings_hourly, readings_daily');

  const end = new Date();
  const start = new Date(end.getTime() - 365 * 86_400_000);
  const costPath = `/api/v1/building_blocks/${config!.building_block_id}/energy-cost?${new URLSearchParams({
    account_id: demoAccount,
    start: start.toISOString(),
    end: end.toISOString(),
  })}`;
  const began = performance.now();
  const cost = await api<{ sources: { priced: boolean; bills: { import_kwh: number }[] }[] }>(costPath, {
    token: demoToken,
  });
  const oneCostMs = performance.now() - began;

  const email = `other-${Date.now()}@example.com`;
  const signup = await api<{ user: { id: string } }>('/api/v1/auth/signup', {
    method: 'POST',
    body: { email, password: 'correct horse battery' },
  });
  const otherToken = await login(email, 'correct horse battery');
  const otherAccount = await api<{ id: string }>('/api/v1/organizations', {
    method: 'POST',
    token: otherToken,
    body: { name: 'Other Org', primary_owner_user_id: signup.user.id },
  });
  const tariff = await api<{ id: number }>('/api/v1/tariffs', {
    method: 'POST',
    token: otherToken,
    body: {
      account_id: otherAccount.id,
      name: 'Other tariff',
      effective_from: '2025-01-01',
      effective_to: '2030-12-31',
    },
  });
  const tariffUrl = `${base}/api/v1/tariffs/${tariff.id}?account_id=${otherAccount.id}`;
  const blocksUrl = `${base}/api/v1/building_blocks?account_id=${otherAccount.id}`;

  const warm = Math.min(5, SECONDS);
  await eventLoopDelay();
  const [alone, aloneBlocks] = await Promise.all([
    atFixedRate(tariffUrl, otherToken, warm),
    atFixedRate(blocksUrl, otherToken, warm),
  ]);
  const quietLoop = await eventLoopDelay();
  const [flood, during, duringBlocks] = await Promise.all([
    // In a worker thread: the flood must not delay the measuring requests of this thread.
    autocannon({
      url: `${base}${costPath}`,
      headers: { authorization: `Bearer ${demoToken}` },
      connections: FLOOD_CONNECTIONS,
      duration: SECONDS,
      workers: 1,
    }),
    atFixedRate(tariffUrl, otherToken, SECONDS),
    atFixedRate(blocksUrl, otherToken, SECONDS),
  ]);

  const floodLoop = await eventLoopDelay();
  const priced = cost.sources.filter((s) => s.priced).length;
  console.log(
    `machine: ${machine()}; service on PostgreSQL; ${stretched.rowCount} readings added (a year per demo meter)`,
  );
  console.log(`one building cost over 365 days (${priced} sources priced), alone: ${oneCostMs.toFixed(0)} ms`);
  console.log(
    `flood: building cost, ${FLOOD_CONNECTIONS} connections, ${SECONDS} s: ${flood.requests.total} answers (${describeStatuses(flood.statusCodeStats as never)}), errors ${flood.errors}, timeouts ${flood.timeouts}; latency p50 ${flood.latency.p50} ms, p99 ${flood.latency.p99} ms`,
  );
  for (const [what, quiet, loaded] of [
    ['tariff read (cached)', alone, during],
    ['building blocks list', aloneBlocks, duringBlocks],
  ] as const) {
    console.log(
      `other organization, ${what} at ${OTHER_RATE_PER_S}/s, alone (${warm} s): ${describeLatency(quiet.latencies)}`,
    );
    console.log(
      `other organization, ${what} at ${OTHER_RATE_PER_S}/s, during the flood: ${describeLatency(loaded.latencies)}; statuses ${describeStatuses(loaded.statuses)}`,
    );
  }
  console.log(`service event loop delay: alone ${quietLoop}; during the flood ${floodLoop}`);
  const fiveHundreds = Object.entries(flood.statusCodeStats as Record<string, { count: number }>)
    .filter(([status]) => status === '500')
    .reduce((n, [, s]) => n + s.count, 0);
  console.log(`500 answers: ${fiveHundreds} (required 0); other organization p99 target < 50 ms`);
  if (fiveHundreds > 0) process.exitCode = 1;
} finally {
  await sql.end();
  await stopProcess(service);
  await database.drop();
}
