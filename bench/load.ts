/**
 * Load benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/load.ts [seconds]
 * Starts the service (seeded with the demo) and a bare Fastify route as separate processes, then
 * drives each with autocannon at 50 connections: the bare route, the authenticated single-tariff
 * read, a mix of authenticated reads (tariff with items, building blocks list, energy-sum), the demo
 * building's last whole month cost (EXPENSIVE_CONCURRENCY_PER_ORG raised to 64 so that admission
 * does not cap it) and a month's 30-minute energy profile of the demo's grid meter.
 */
import autocannon from 'autocannon';
import { freshDatabase, machine, requireDatabaseUrl, startProcess, stopProcess } from './support.ts';

const SECONDS = Number(process.argv[2] ?? 30);
const CONNECTIONS = 50;
const SERVICE_PORT = '3901';
const BARE_PORT = '3902';

interface Run {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function run(name: string, options: autocannon.Options): Promise<Run> {
  const result = await autocannon({ connections: CONNECTIONS, duration: SECONDS, ...options });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_load');
const service = await startProcess(
  ['src/server.ts'],
  {
    DATABASE_URL: database.url,
    PORT: SERVICE_PORT,
    SEED_DEMO: 'true',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT_PER_MIN: '0',
    EXPENSIVE_CONCURRENCY_PER_ORG: '64',
    EXPENSIVE_CONCURRENCY_TOTAL: '64',
    EXPENSIVE_CONCURRENCY_PER_USER: '64',
  },
  `http://127.0.0.1:${SERVICE_PORT}/readyz`,
).catch(async (error) => {
  await database.drop();
  throw error;
});
const bare = await startProcess(['bench/bare-server.ts'], { PORT: BARE_PORT }, `http://127.0.0.1:${BARE_PORT}/bare`);
try {
  const base = `http://127.0.0.1:${SERVICE_PORT}`;
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
  const headers = { authorization: `Bearer ${token}` };
  const orgs = (await (await fetch(`${base}/api/v1/auth/organizations`, { headers })).json()) as {
    data: { id: string; is_personal_account: boolean }[];
  };
  const accountId = orgs.data.find((o) => !o.is_personal_account)!.id;
  const tariffs = (await (await fetch(`${base}/api/v1/tariffs?account_id=${accountId}`, { headers })).json()) as {
    data: { id: number }[];
  };
  const tariffPath = `/api/v1/tariffs/${tariffs.data[0]!.id}?account_id=${accountId}`;
  const end = new Date();
  const start = new Date(end.getTime() - 7 * 86_400_000);
  const sumPath = `/api/v1/timeseries/electricity/energy-sum?${new URLSearchParams({
    account_id: accountId,
    meter_sn: 'DEMO-GRID-001',
    start: start.toISOString(),
    end: end.toISOString(),
  })}`;

  // The last whole calendar month in South African time (UTC+2), inside the 90 days of demo readings.
  const now = new Date();
  const monthEnd = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 2 * 3600_000);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - 2 * 3600_000);
  const month = { account_id: accountId, start: monthStart.toISOString(), end: monthEnd.toISOString() };
  const blocks = (await (
    await fetch(`${base}/api/v1/building_blocks?account_id=${accountId}`, { headers })
  ).json()) as {
    data: { id: number }[];
  };
  const costPaths = blocks.data.map((b) => `/api/v1/building_blocks/${b.id}/energy-cost?${new URLSearchParams(month)}`);
  const costStatuses = await Promise.all(costPaths.map(async (path) => (await fetch(base + path, { headers })).status));
  const costPath = costPaths[costStatuses.indexOf(200)]!;
  const profilePath = `/api/v1/timeseries/electricity/energy-profile?${new URLSearchParams({
    ...month,
    meter_sn: 'DEMO-GRID-001',
    bucket_minutes: '30',
  })}`;

  const runs = [
    await run('bare Fastify route', { url: `http://127.0.0.1:${BARE_PORT}/bare` }),
    await run('tariff with items (authenticated)', { url: `${base}${tariffPath}`, headers }),
    await run('mix: tariff, building blocks list, energy-sum', {
      url: base,
      headers,
      requests: [
        { method: 'GET', path: tariffPath },
        { method: 'GET', path: `/api/v1/building_blocks?account_id=${accountId}` },
        { method: 'GET', path: sumPath },
      ],
    }),
    await run("demo building's month cost", { url: base + costPath, headers }),
    await run("grid meter's month energy profile (30 min)", { url: base + profilePath, headers }),
  ];
  console.log(`machine: ${machine()}; ${CONNECTIONS} connections, ${SECONDS} s each; service on PostgreSQL`);
  for (const r of runs) {
    console.log(
      `${r.name.padEnd(48)} ${Math.round(r.requestsPerSecond).toString().padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  non-2xx ${r.non2xx}`,
    );
  }
  const ratio = runs[1]!.requestsPerSecond / runs[0]!.requestsPerSecond;
  console.log(`tariff read / bare route: ${(ratio * 100).toFixed(1)}% (target >= 30%, zero errors, p99 < 50 ms)`);
  const costRatio = runs[3]!.requestsPerSecond / runs[1]!.requestsPerSecond;
  console.log(
    `month cost / tariff read: ${(costRatio * 100).toFixed(2)}% (target >= 500 req/s, about 2%; p99 < 200 ms)`,
  );
  console.log('month profile target: >= 1,000 req/s; mix p99 < 50 ms');
} finally {
  await stopProcess(bare);
  await stopProcess(service);
  await database.drop();
}
