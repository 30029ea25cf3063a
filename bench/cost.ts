/**
 * Energy cost benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/cost.ts
 * Seeds the demo (its grid meter on Homeflex time-of-use with a feed-in credit, 90 days of 30-minute
 * readings) into a database of its own, then prices the demo building's last whole month through
 * HTTP on a real socket, one request at a time, and prints the latency percentiles.
 */
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';
import { freshDatabase, machine, percentile, requireDatabaseUrl } from './support.ts';

const WARMUP = 30;
const REQUESTS = 300;

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_cost');
const db = openPostgresDatabase(database.url);
try {
  await migrate(db);
  const seed = await seedDemo(db);
  if (!seed) throw new Error('demo seed did not run');
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_MIN: '0' });
  const app = await buildApp({ config, db, keys: generateSigningKeys() });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });

  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: DEMO_EMAIL, password: DEMO_PASSWORD }),
  });
  const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;

  // The last whole calendar month in South African time (UTC+2), inside the 90 days of demo readings.
  const now = new Date();
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 2 * 3600_000);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - 2 * 3600_000);
  const query = new URLSearchParams({
    account_id: seed.accountId,
    start: monthStart.toISOString(),
    end: end.toISOString(),
  });
  const url = `${base}/api/v1/building_blocks/${seed.blockId}/energy-cost?${query}`;

  const timings: number[] = [];
  let body: { data: { sources: { priced: boolean; bills: unknown[] }[]; totals: Record<string, number> } } | undefined;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    const began = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    body = (await res.json()) as typeof body;
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(body)}`);
    if (i >= WARMUP) timings.push(performance.now() - began);
  }
  timings.sort((a, b) => a - b);
  const priced = body!.data.sources.filter((s) => s.priced).length;
  console.log(`machine: ${machine()}, PostgreSQL`);
  console.log(
    `demo building ${monthStart.toISOString()} .. ${end.toISOString()}: ${priced} sources priced, totals ${JSON.stringify(body!.data.totals)}`,
  );
  console.log(
    `energy-cost over HTTP, ${REQUESTS} sequential requests: p50 ${percentile(timings, 50).toFixed(2)} ms, p95 ${percentile(timings, 95).toFixed(2)} ms, p99 ${percentile(timings, 99).toFixed(2)} ms (target p50 < 20 ms)`,
  );
  await app.close();
} finally {
  await db.close();
  await database.drop();
}
