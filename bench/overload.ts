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
import autocannon from 'autocannon';
import {
  atFixedRate,
  describeLatency,
  describeStatuses,
  eventLoopDelay,
  fiveHundreds,
  startSeededService,
  stretchToAYear,
  VARY_PERIOD,
} from './flood.ts';
import { machine } from './support.ts';

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

const { sql, stop } = await startSeededService('ums_bench_overload', PORT);
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
  const stretched = await stretchToAYear(sql, demoAccount);

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
  await eventLoopDelay(base);
  const [alone, aloneBlocks] = await Promise.all([
    atFixedRate(tariffUrl, otherToken, warm, OTHER_RATE_PER_S),
    atFixedRate(blocksUrl, otherToken, warm, OTHER_RATE_PER_S),
  ]);
  const quietLoop = await eventLoopDelay(base);
  const [flood, during, duringBlocks] = await Promise.all([
    // In a worker thread: the flood must not delay the measuring requests of this thread.
    autocannon({
      url: base,
      requests: [{ method: 'GET', path: costPath, setupRequest: VARY_PERIOD }],
      headers: { authorization: `Bearer ${demoToken}` },
      connections: FLOOD_CONNECTIONS,
      duration: SECONDS,
      workers: 1,
    }),
    atFixedRate(tariffUrl, otherToken, SECONDS, OTHER_RATE_PER_S),
    atFixedRate(blocksUrl, otherToken, SECONDS, OTHER_RATE_PER_S),
  ]);

  const floodLoop = await eventLoopDelay(base);
  const priced = cost.sources.filter((s) => s.priced).length;
  console.log(`machine: ${machine()}; service on PostgreSQL; ${stretched} readings added (a year per demo meter)`);
  console.log(`one building cost over 365 days (${priced} sources priced), alone: ${oneCostMs.toFixed(0)} ms`);
  console.log(
    `flood: building cost over a year, each request a period of its own, ${FLOOD_CONNECTIONS} connections, ${SECONDS} s: ${flood.requests.total} answers (${describeStatuses(flood.statusCodeStats as never)}), errors ${flood.errors}, timeouts ${flood.timeouts}; latency p50 ${flood.latency.p50} ms, p99 ${flood.latency.p99} ms`,
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
  const refusedWith500 = fiveHundreds(flood.statusCodeStats as never);
  console.log(`500 answers: ${refusedWith500} (required 0); other organization p99 target < 50 ms`);
  if (refusedWith500 > 0) process.exitCode = 1;
} finally {
  await stop();
}
