/**
 * Load benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/load.ts [seconds]
 * Starts the service (seeded with the demo) and the bare Fastify routes as separate processes, then
 * drives each with autocannon at 50 connections: the bare route, the authenticated single-tariff
 * read, a mix of authenticated reads (tariff with items, building blocks list, energy-sum), the demo
 * building's month cost, each request another period so that it is priced, then the same month
 * each time (bills are kept from a period's second request on; EXPENSIVE_CONCURRENCY_PER_ORG
 * raised to 64 so that admission does not cap it), a month's
 * 30-minute energy profile of the demo's grid meter as it is kept (asked with `accept-encoding:
 * br, gzip`, then without), a bare route sending the same bytes as that profile uncompressed, and
 * the profile computed on each request (each request another period). Prints each figure with the load average, then each target of issue 31 as a ratio of
 * this run with PASS or FAIL. The bare route and the tariff read run PAIRS times side by side (3
 * by default): the machine's speed moves by half within minutes, so the ratio is the median of the
 * pairs' ratios, and the other figures are against the tariff read of that pair.
 *
 * LINK_RATE=1gbit (as root, with iproute2's tc) sends the answers of the service's and the bare
 * routes' ports through a link of that rate during the three runs that compare bytes (the kept
 * profile compressed and uncompressed, the bare route sending the same bytes): an htb class on the
 * loopback device, removed after them. On loopback alone the bytes cost next to nothing, and the
 * br run measures autocannon, which decodes every body as UTF-8 (slow for binary bytes); a link of
 * a real network's rate is what the byte targets are about (docs/PERFORMANCE.md).
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { VARY_PERIOD } from './flood.ts';
import { freshDatabase, machine, requireDatabaseUrl, startProcess, stopProcess } from './support.ts';

const SECONDS = Number(process.argv[2] ?? 30);
const CONNECTIONS = 50;
const PAIRS = Number(process.env.PAIRS ?? 3);
const SERVICE_PORT = '3901';
const BARE_PORT = '3902';

interface Run {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The load average over the last minute as the run ended. */
  load: number;
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
    load: loadavg()[0]!,
  };
}

const LINK_RATE = process.env.LINK_RATE;

/** Sends what leaves the ports on the loopback device through a link of LINK_RATE (an htb class); returns its removal. */
function throughLink(ports: string[]): () => void {
  if (!LINK_RATE) return () => {};
  const tc = (...args: string[]) => execFileSync('tc', args, { stdio: ['ignore', 'ignore', 'ignore'] });
  tc('qdisc', 'add', 'dev', 'lo', 'root', 'handle', '1:', 'htb', 'default', '10');
  const removal = () => tc('qdisc', 'del', 'dev', 'lo', 'root');
  try {
    tc('class', 'add', 'dev', 'lo', 'parent', '1:', 'classid', '1:10', 'htb', 'rate', '100gbit');
    tc(
      'class',
      'add',
      'dev',
      'lo',
      'parent',
      '1:',
      'classid',
      '1:20',
      'htb',
      'rate',
      LINK_RATE,
      'burst',
      '256kb',
      'cburst',
      '256kb',
    );
    for (const port of ports) {
      tc(
        'filter',
        'add',
        'dev',
        'lo',
        'parent',
        '1:',
        'protocol',
        'ip',
        'prio',
        '1',
        'u32',
        'match',
        'ip',
        'sport',
        port,
        '0xffff',
        'flowid',
        '1:20',
      );
    }
  } catch (error) {
    removal();
    throw error;
  }
  return removal;
}

/** Prints a target of the run: its figure, the target and whether it is met. */
function target(name: string, figure: string, goal: string, met: boolean) {
  console.log(`${met ? 'PASS' : 'FAIL'}  ${name.padEnd(52)} ${figure.padStart(9)}  (target ${goal})`);
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
let bare: Awaited<ReturnType<typeof startProcess>> | undefined;
const sameBytesFile = join(tmpdir(), `ums-bench-profile-${process.pid}.json`);
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

  // The kept profile's bytes, uncompressed, for the bare route that sends the same.
  const profileBytes = await fetch(base + profilePath, { headers: { ...headers, 'accept-encoding': 'identity' } });
  if (!profileBytes.ok)
    throw new Error(`the month profile answered ${profileBytes.status}: ${await profileBytes.text()}`);
  writeFileSync(sameBytesFile, Buffer.from(await profileBytes.arrayBuffer()));
  bare = await startProcess(
    ['bench/bare-server.ts'],
    { PORT: BARE_PORT, SAME_BYTES_FILE: sameBytesFile },
    `http://127.0.0.1:${BARE_PORT}/bare`,
  );
  console.log(`machine: ${machine()}; ${CONNECTIONS} connections, ${SECONDS} s each; service on PostgreSQL`);
  console.log(
    `load average before the runs: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')}`,
  );
  const compressed = { ...headers, 'accept-encoding': 'br, gzip' };
  // Each request a period of its own (a minute earlier each time): never kept, priced or computed anew.
  const eachAnotherPeriod = (path: string): autocannon.Options => ({
    url: base,
    headers,
    workers: 1,
    requests: [{ method: 'GET', path, setupRequest: VARY_PERIOD }],
  });
  const pairs: { bare: Run; tariff: Run }[] = [];
  for (let i = 0; i < PAIRS; i++) {
    pairs.push({
      bare: await run('bare Fastify route', { url: `http://127.0.0.1:${BARE_PORT}/bare` }),
      tariff: await run('tariff with items (authenticated)', { url: `${base}${tariffPath}`, headers }),
    });
  }
  const tariffShare = (pair: { bare: Run; tariff: Run }) => pair.tariff.requestsPerSecond / pair.bare.requestsPerSecond;
  pairs.sort((a, b) => tariffShare(a) - tariffShare(b));
  console.log(
    `tariff read / bare route, pair by pair: ${pairs.map((pair) => tariffShare(pair).toFixed(3)).join(', ')}`,
  );
  const runs = {
    ...pairs[Math.floor(PAIRS / 2)]!,
    mix: await run('mix: tariff, building blocks list, energy-sum', {
      url: base,
      headers,
      requests: [
        { method: 'GET', path: tariffPath },
        { method: 'GET', path: `/api/v1/building_blocks?account_id=${accountId}` },
        { method: 'GET', path: sumPath },
      ],
    }),
    cost: await run("demo building's month cost, each request another period", eachAnotherPeriod(costPath)),
    keptCost: await run("demo building's month cost, the same month (bills kept)", { url: base + costPath, headers }),
    ...(await (async () => {
      const removeLink = throughLink([SERVICE_PORT, BARE_PORT]);
      const over = LINK_RATE ? `, over a ${LINK_RATE} link` : '';
      try {
        return {
          keptCompressed: await run(`month profile (30 min), kept, br/gzip accepted${over}`, {
            url: base + profilePath,
            headers: compressed,
          }),
          kept: await run(`month profile (30 min), kept, uncompressed${over}`, { url: base + profilePath, headers }),
          sameBytes: await run(`bare route sending the same bytes, uncompressed${over}`, {
            url: `http://127.0.0.1:${BARE_PORT}/same-bytes`,
          }),
        };
      } finally {
        removeLink();
      }
    })()),
    cold: await run('month profile (30 min), computed each request', eachAnotherPeriod(profilePath)),
  };
  for (const r of Object.values(runs)) {
    console.log(
      `${r.name.padEnd(52)} ${Math.round(r.requestsPerSecond).toString().padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  errors ${r.errors}  non-2xx ${r.non2xx}  load ${r.load.toFixed(2)}`,
    );
  }
  console.log(`profile body: ${profileBytes.headers.get('content-length')} bytes uncompressed`);
  const ratio = (a: Run, b: Run) => a.requestsPerSecond / b.requestsPerSecond;
  const shown = (x: number) => x.toFixed(3);
  const clean = Object.values(runs).every((r) => r.errors === 0 && r.non2xx === 0);
  target('no errors, no non-2xx answers', clean ? 'none' : 'some', 'none', clean);
  target(
    'tariff read / bare route (the median pair)',
    shown(ratio(runs.tariff, runs.bare)),
    '>= 0.30',
    ratio(runs.tariff, runs.bare) >= 0.3,
  );
  const keptCompressed = ratio(runs.keptCompressed, runs.sameBytes);
  target('kept profile, br/gzip / bare same bytes', shown(keptCompressed), '>= 2', keptCompressed >= 2);
  const kept = ratio(runs.kept, runs.sameBytes);
  target('kept profile, uncompressed / bare same bytes', shown(kept), '>= 0.8', kept >= 0.8);
  const cold = ratio(runs.cold, runs.tariff);
  target('profile computed each request / tariff read', shown(cold), '>= 0.05', cold >= 0.05);
  const cost = ratio(runs.cost, runs.tariff);
  target('month cost / tariff read', shown(cost), '>= 0.08', cost >= 0.08);
  console.log(`month cost, the same month (bills kept) / tariff read: ${shown(ratio(runs.keptCost, runs.tariff))}`);
  target('mix p99', `${runs.mix.p99} ms`, '< 50 ms', runs.mix.p99 < 50);
  const mix = ratio(runs.mix, runs.tariff);
  target('mix / tariff read', shown(mix), '>= 0.25', mix >= 0.25);
  console.log('building-year of 5 sources, p50 < 15 ms sequential: measured by bench/cost.ts');
} finally {
  rmSync(sameBytesFile, { force: true });
  if (bare) await stopProcess(bare);
  await stopProcess(service);
  await database.drop();
}
