/**
 * One API process against two on one PostgreSQL database:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/processes.ts [seconds] [rounds]
 * Creates a database of its own (dropped at the end), starts two service processes on it (the
 * first seeds the demo; both sign with the same JWT_PRIVATE_KEY, so a token from one is good on
 * the other; EXPENSIVE_CONCURRENCY_PER_ORG=64 so that the cost is measured, not refused), and
 * drives each workload with autocannon at 50 connections in all: 50 on the first process alone,
 * then 25 on each process at once. The order alternates round by round. Prints requests/s (the
 * sum over the processes) and the latency percentiles (the higher of the two).
 *
 * With DATABASE_REPLICA_URL (a streaming standby of that server, e.g. scripts/pg-topology.sh's on
 * port 5433), then month profiles of random periods (few asked twice: the kept answers rarely
 * serve them) on two processes that keep no months of readings (KEPT_MONTHS_BYTES=0), without and
 * with the replica serving their readings: requests/s, and the CPU the primary's and the standby's
 * processes used as a share of the machine (read from /proc: both servers run on this machine).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../src/seed/demo.ts';
import {
  apiClient,
  freshDatabase,
  machine,
  requireDatabaseUrl,
  startProcess,
  stopProcess,
  withDatabase,
} from './support.ts';

const SECONDS = Number(process.argv[2] ?? 15);
const ROUNDS = Number(process.argv[3] ?? 2);
const CONNECTIONS = 50;
const PORTS = ['3911', '3912'];

interface Result {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failures: number;
}

/** autocannon on each base at once, CONNECTIONS shared between them; a path function gives each request its own. */
async function drive(bases: string[], path: string | (() => string), headers: Record<string, string>): Promise<Result> {
  const results = await Promise.all(
    bases.map((base) =>
      typeof path === 'string'
        ? autocannon({ url: `${base}${path}`, headers, connections: CONNECTIONS / bases.length, duration: SECONDS })
        : autocannon({
            url: base,
            headers,
            connections: CONNECTIONS / bases.length,
            duration: SECONDS,
            requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path() }) }],
          }),
    ),
  );
  return {
    requestsPerSecond: results.reduce((sum, r) => sum + r.requests.average, 0),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    failures: results.reduce((sum, r) => sum + r.errors + r.timeouts + r.non2xx, 0),
  };
}

/**
 * The CPU time (ms) used so far by a PostgreSQL server's processes: its postmaster and every child,
 * and the children that have ended (the postmaster's cutime and cstime).
 */
function serverCpuMs(dataDirectory: string): number {
  const postmaster = readFileSync(join(dataDirectory, 'postmaster.pid'), 'utf8').split('\n')[0]!;
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command's closing parenthesis: state, ppid, ... utime (14th field), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
    if (pid === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  }
  return ticks * 10; // 100 ticks a second
}

async function dataDirectory(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ data_directory: string }>('SHOW data_directory')).rows[0]!.data_directory;
  } finally {
    await client.end();
  }
}

/** drive(), with the share of the machine's CPU each server's processes used meanwhile. */
async function driveMeasured(bases: string[], path: () => string, headers: Record<string, string>, servers: string[]) {
  const before = servers.map(serverCpuMs);
  const started = performance.now();
  const result = await drive(bases, path, headers);
  const machineMs = (performance.now() - started) * cpus().length;
  return { ...result, cpuShares: servers.map((dir, i) => (serverCpuMs(dir) - before[i]!) / machineMs) };
}

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_processes');
const env = {
  DATABASE_URL: database.url,
  LOG_LEVEL: 'warn',
  AUTH_RATE_LIMIT_PER_MIN: '0',
  EXPENSIVE_CONCURRENCY_PER_ORG: '64',
  EXPENSIVE_CONCURRENCY_TOTAL: '64',
  EXPENSIVE_CONCURRENCY_PER_USER: '64',
  JWT_PRIVATE_KEY: generateSigningKeys().privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
  // This run's server is named by DATABASE_REPLICA_URL: the services get the replica of their own database, or none.
  DATABASE_REPLICA_URL: '',
};
const bases = PORTS.map((port) => `http://127.0.0.1:${port}`);
const services = [];
try {
  // One after the other: the first seeds the demo, the second finds it there.
  for (const [i, port] of PORTS.entries()) {
    services.push(
      await startProcess(['src/server.ts'], { ...env, PORT: port, SEED_DEMO: String(i === 0) }, `${bases[i]}/readyz`),
    );
  }
  const api = apiClient(bases[0]!);
  const token = await api.login({ email: DEMO_EMAIL, password: DEMO_PASSWORD });
  const headers = { authorization: `Bearer ${token}` };
  const organizations = await api.call<{ id: string; is_personal_account: boolean }[]>(
    'GET',
    '/api/v1/auth/organizations',
  );
  const accountId = organizations.find((o) => !o.is_personal_account)!.id;
  const [tariff] = await api.get<{ id: number }[]>('/api/v1/tariffs', { account_id: accountId });
  const site = (
    await api.get<{ id: number; parent_id: number | null }[]>('/api/v1/building_blocks', { account_id: accountId })
  ).find((block) => block.parent_id === null);
  // The last whole calendar month in South African time (UTC+2), inside the demo's 90 days of readings.
  const now = new Date();
  const month = {
    account_id: accountId,
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - 2 * 3600_000).toISOString(),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 2 * 3600_000).toISOString(),
  };
  const workloads = [
    { name: 'tariff with items (cached read)', path: `/api/v1/tariffs/${tariff!.id}?account_id=${accountId}` },
    { name: 'building blocks list (database read)', path: `/api/v1/building_blocks?account_id=${accountId}` },
    {
      name: 'energy profile, demo grid meter, month by 30 minutes',
      path: `/api/v1/timeseries/electricity/energy-profile?${new URLSearchParams({ ...month, meter_sn: 'DEMO-GRID-001', bucket_minutes: '30' })}`,
    },
    {
      name: 'energy cost, demo building, last month',
      path: `/api/v1/building_blocks/${site!.id}/energy-cost?${new URLSearchParams(month)}`,
    },
  ];

  console.log(
    `machine: ${machine()}; ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds; services on PostgreSQL`,
  );
  for (const workload of workloads) {
    // Each workload answers 200 on both processes before it is measured.
    for (const base of bases) {
      const res = await fetch(`${base}${workload.path}`, { headers });
      if (res.status !== 200) throw new Error(`${workload.name}: ${res.status} ${await res.text()}`);
    }
    const runs: Record<'one' | 'two', Result[]> = { one: [], two: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const);
      for (const processes of order) {
        runs[processes].push(await drive(processes === 'one' ? bases.slice(0, 1) : bases, workload.path, headers));
      }
    }
    for (const processes of ['one', 'two'] as const) {
      const line = runs[processes]
        .map((r) => `${Math.round(r.requestsPerSecond)} req/s p50 ${r.p50} p99 ${r.p99} ms, ${r.failures} failed`)
        .join('; ');
      console.log(`${workload.name.padEnd(56)} ${processes} process${processes === 'two' ? 'es' : '  '}: ${line}`);
    }
  }

  const replicaServer = process.env.DATABASE_REPLICA_URL;
  if (replicaServer) {
    // A month by 30 or 60 minutes from a random half hour of the 30 days before last month (the
    // demo has 90 days of readings): few requests ask what an earlier one asked, so the processes'
    // kept answers rarely serve them.
    const monthStart = Date.parse(month.start);
    const profile = () => {
      const start = monthStart - Math.floor(Math.random() * 30 * 48) * 1_800_000;
      const query = new URLSearchParams({
        account_id: accountId,
        meter_sn: 'DEMO-GRID-001',
        start: new Date(start).toISOString(),
        end: new Date(start + 30 * 86_400_000).toISOString(),
        bucket_minutes: Math.random() < 0.5 ? '30' : '60',
      });
      return `/api/v1/timeseries/electricity/energy-profile?${query}`;
    };
    const replicaUrl = withDatabase(replicaServer, new URL(database.url).pathname.slice(1));
    const servers = [await dataDirectory(database.url), await dataDirectory(replicaUrl)];
    const pairs = { primary: ['3913', '3914'], replica: ['3915', '3916'] } as const;
    for (const [kind, ports] of Object.entries(pairs)) {
      for (const port of ports) {
        const replica: Record<string, string> = kind === 'replica' ? { DATABASE_REPLICA_URL: replicaUrl } : {};
        const base = `http://127.0.0.1:${port}`;
        services.push(
          await startProcess(
            ['src/server.ts'],
            { ...env, ...replica, PORT: port, KEPT_MONTHS_BYTES: '0' },
            `${base}/readyz`,
          ),
        );
      }
    }
    // The replica in use on both of its processes (it has replayed the seed) before it is measured.
    for (const port of pairs.replica) {
      for (;;) {
        const ready = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as {
          data: { replica?: { in_use: boolean } };
        };
        if (ready.data.replica?.in_use) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    console.log('month profiles of random periods, two processes keeping no months (KEPT_MONTHS_BYTES=0):');
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['primary', 'replica'] as const) : (['replica', 'primary'] as const);
      for (const kind of order) {
        const r = await driveMeasured(
          pairs[kind].map((port) => `http://127.0.0.1:${port}`),
          profile,
          headers,
          servers,
        );
        const [primaryShare, standbyShare] = r.cpuShares.map((share) => `${Math.round(share * 100)}%`);
        console.log(
          `  ${kind === 'replica' ? 'profiles on the replica' : 'all on the primary    '}: ${Math.round(r.requestsPerSecond)} req/s p50 ${r.p50} p99 ${r.p99} ms, ${r.failures} failed; CPU of the machine: primary ${primaryShare}, standby ${standbyShare}`,
        );
      }
    }
  }
} finally {
  for (const service of services) await stopProcess(service);
  await database.drop();
}
