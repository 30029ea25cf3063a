/**
 * Energy profile benchmark against PostgreSQL (Linux: CPU times are read from /proc):
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/profile.ts [requests]
 * Starts the service (seeded with the demo, in a database of its own) as a process of its own and
 * asks it through HTTP, one request at a time, for the month energy profile of the demo's grid
 * meter in 30-minute buckets (the last whole calendar month in South African time, 1,488 buckets),
 * as bench/load.ts does at 50 connections. Prints the latency percentiles and the CPU time per
 * request of the service process and of the database's server processes (what caps the requests
 * per second when both share the machine's cores), twice: warm, the same month every time (kept
 * by the service until the meter's readings change), and cold, each request the month shifted
 * back by one more bucket (computed every time). PROFILE_OUT=file writes the month's body there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../src/seed/demo.ts';
import {
  apiClient,
  freshDatabase,
  machine,
  percentile,
  requireDatabaseUrl,
  sequentialTimes,
  startProcess,
  stopProcess,
} from './support.ts';

const WARMUP = 200;
const REQUESTS = Number(process.argv[2] ?? 1000);
const PORT = '3921';
const TICKS_PER_MS = 0.1; // USER_HZ = 100
const BUCKET_MS = 30 * 60_000;

/** User and system CPU time of a process so far, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
}

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_profile');
const service = await startProcess(
  ['src/server.ts'],
  { DATABASE_URL: database.url, PORT, SEED_DEMO: 'true', LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' },
  `http://127.0.0.1:${PORT}/readyz`,
).catch(async (error) => {
  await database.drop();
  throw error;
});
const monitor = new pg.Client({ connectionString: database.url });
try {
  await monitor.connect();
  const base = `http://127.0.0.1:${PORT}`;
  const client = apiClient(base);
  const token = await client.login({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
  const orgs = await client.call<{ id: string; is_personal_account: boolean }[]>('GET', '/api/v1/auth/organizations');
  const now = new Date();
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 2 * 3600_000);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - 2 * 3600_000);
  const accountId = orgs.find((o) => !o.is_personal_account)!.id;
  /** The month shifted back by `shift` buckets: each shift a profile not yet computed. */
  const urlOf = (shift: number) => {
    const query = new URLSearchParams({
      account_id: accountId,
      meter_sn: 'DEMO-GRID-001',
      start: new Date(start.getTime() - shift * BUCKET_MS).toISOString(),
      end: new Date(end.getTime() - shift * BUCKET_MS).toISOString(),
      bucket_minutes: '30',
    });
    return `${base}/api/v1/timeseries/electricity/energy-profile?${query}`;
  };
  let body = '';
  const send = async (url: string) => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    body = await res.text();
    if (res.status !== 200) throw new Error(`status ${res.status}: ${body}`);
  };
  // Cold requests from WARMUP buckets back, where the warm-up has not been.
  let shift = WARMUP;
  await sequentialTimes(WARMUP, 0, () => send(urlOf(--shift)));
  // The service's connections to its database, once the warm-up has opened them.
  const backends = (
    await monitor.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    )
  ).rows.map((r) => r.pid);
  const databaseCpu = () => backends.reduce((total, pid) => total + cpuMs(pid), 0);
  console.log(`machine: ${machine()}, PostgreSQL`);

  /** Latency percentiles and CPU per request of REQUESTS sequential requests, each of urlOf(nextShift()). */
  async function measure(label: string, nextShift: () => number) {
    const [serviceBefore, databaseBefore] = [cpuMs(service.pid!), databaseCpu()];
    const timings = await sequentialTimes(0, REQUESTS, () => send(urlOf(nextShift())));
    const perRequest = (before: number, after: number) => ((after - before) / REQUESTS).toFixed(2);
    const serviceCpu = perRequest(serviceBefore, cpuMs(service.pid!));
    const dbCpu = perRequest(databaseBefore, databaseCpu());
    console.log(
      `${label}, ${REQUESTS} sequential requests: p50 ${percentile(timings, 50).toFixed(2)} ms, p95 ${percentile(timings, 95).toFixed(2)} ms, p99 ${percentile(timings, 99).toFixed(2)} ms; CPU per request: service ${serviceCpu} ms, database ${dbCpu} ms (${backends.length} connections)`,
    );
  }

  await send(urlOf(0));
  const buckets = (JSON.parse(body) as { data: unknown[] }).data.length;
  console.log(
    `grid meter ${start.toISOString()} .. ${end.toISOString()}, 30-minute buckets: ${buckets} buckets, ${body.length} bytes`,
  );
  await measure('energy-profile over HTTP, warm (the same month, kept)', () => 0);
  if (process.env.PROFILE_OUT) writeFileSync(process.env.PROFILE_OUT, body);
  shift = WARMUP;
  await measure('energy-profile over HTTP, cold (each a month shifted back by one more bucket)', () => ++shift);
} finally {
  await monitor.end();
  await stopProcess(service);
  await database.drop();
}
