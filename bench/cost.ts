/**
 * Energy cost benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/cost.ts
 * Seeds the demo (its grid meter on Homeflex time-of-use with a feed-in credit, 90 days of 30-minute
 * readings) into a database of its own, starts the service over it as a process of its own, then
 * prices the demo building's last whole month through HTTP, one request at a time, and prints the
 * latency percentiles and the service's CPU time a request: asking for the
 * same month each time (the service keeps the bills) and for a period of its own each time (the end
 * a minute earlier: priced each time). Then builds a building of 5 sources (grid, solar, genset,
 * inverter, load), each a meter with a full year of 30-minute readings priced with the demo's
 * Homeflex tariff, and prices that year the same two ways.
 */
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { notifyOtherProcesses } from '../src/db/read-cache.ts';
import { ReadingBatch } from '../src/modules/timeseries/readings.ts';
import { prepareReadings, storeReadings } from '../src/modules/timeseries/store-readings.ts';
import { seedDemoWithApp, serveDemoProcess } from './demo-app.ts';
import { freshDatabase, getDecoded, machine, percentile, requireDatabaseUrl } from './support.ts';

const WARMUP = 30;
const REQUESTS = 300;
const YEAR_REQUESTS = 50;
const SOURCES = ['grid', 'solar', 'genset', 'inverter', 'load'] as const;
const SLOT_MS = 30 * 60_000;

type CostBody = { data: { sources: { priced: boolean; bills: unknown[] }[]; totals: Record<string, number> } };

/**
 * Sequential GETs of url (or of url(i) for the i-th); the latencies of the timed ones, sorted, the
 * service's CPU time a timed request (ms) and the last body.
 */
async function timeRequests(url: string | ((i: number) => string), token: string, warmup: number, requests: number) {
  const timings: number[] = [];
  let body: CostBody | undefined;
  let cpuBefore = 0;
  for (let i = 0; i < warmup + requests; i++) {
    if (i === warmup) cpuBefore = service!.cpuMs();
    const began = performance.now();
    const res = await getDecoded(typeof url === 'string' ? url : url(i), { authorization: `Bearer ${token}` });
    if (res.status !== 200) throw new Error(`status ${res.status}: ${res.body}`);
    body = JSON.parse(res.body) as CostBody;
    if (i >= warmup) timings.push(performance.now() - began);
  }
  return { timings: timings.sort((a, b) => a - b), cpuMs: (service!.cpuMs() - cpuBefore) / requests, body: body! };
}

const summary = ({ timings, cpuMs }: { timings: number[]; cpuMs: number }) =>
  `p50 ${percentile(timings, 50).toFixed(2)} ms, p95 ${percentile(timings, 95).toFixed(2)} ms, p99 ${percentile(timings, 99).toFixed(2)} ms; service CPU ${cpuMs.toFixed(2)} ms a request`;

const SERVICE_PORT = 3903;
const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_cost');
let service: Awaited<ReturnType<typeof serveDemoProcess>> | undefined;
const db = openPostgresDatabase(database.url);

/** A building whose 5 dashboard sources are meters with a year of 30-minute readings, each on tariffId. */
async function yearBuilding(base: string, token: string, accountId: string, tariffId: number, yearStart: number) {
  const [block] = await db.query<{ id: number }>(
    `INSERT INTO building_blocks (account_id, name, building_type, address, city, state, postal_code, country)
     VALUES ($1, 'Five sources', 'COMMERCIAL', '1 Main Rd', 'Johannesburg', 'Gauteng', 2001, 'ZA') RETURNING id`,
    [accountId],
  );
  const meterIds: number[] = [];
  for (const source of SOURCES) {
    const [meter] = await db.query<{ id: number }>(
      `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, tariff_id, interval_minutes)
       VALUES ($1, $2, $3, 'ELECTRICITY', $4, 30) RETURNING id`,
      [accountId, block!.id, `YEAR-${source.toUpperCase()}`, tariffId],
    );
    const slots = 365 * 48;
    const batch = new ReadingBatch(slots);
    for (let i = 0; i < slots; i++) {
      const kwh = 1 + ((i * 7919) % 100) / 100;
      batch.push(meter!.id, yearStart + i * SLOT_MS, kwh, 0, kwh / 4, kwh * 2, kwh * 2.2);
    }
    await db.transaction((tx) => storeReadings(tx, accountId, prepareReadings(batch), notifyOtherProcesses));
    meterIds.push(meter!.id);
  }
  // Through the API, as a user configures it: the change of each source's tariff is recorded.
  const config = Object.fromEntries(
    SOURCES.flatMap((source, i) => [
      [`${source}_meter_id`, meterIds[i]],
      [`${source}_tariff_id`, tariffId],
    ]),
  );
  const res = await fetch(`${base}/api/v1/building_blocks/${block!.id}/config`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ account_id: accountId, ...config }),
  });
  if (res.status !== 200) throw new Error(`config: ${res.status} ${await res.text()}`);
  return block!.id;
}
try {
  await migrate(db);
  const seed = await seedDemoWithApp(db, database.url);
  if (!seed) throw new Error('demo seed did not run');
  service = await serveDemoProcess(database.url, SERVICE_PORT);
  const { base, token } = service;

  // The last whole calendar month in South African time (UTC+2), inside the 90 days of demo readings.
  const now = new Date();
  const end = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1) - 2 * 3600_000);
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1) - 2 * 3600_000);
  /** The building's cost over [start, end - minutesBack): a period of its own for each minutesBack. */
  const costUrl = (blockId: number, start: Date, end: Date) => (minutesBack: number) =>
    `${base}/api/v1/building_blocks/${blockId}/energy-cost?${new URLSearchParams({
      account_id: seed.accountId,
      start: start.toISOString(),
      end: new Date(end.getTime() - minutesBack * 60_000).toISOString(),
    })}`;
  /** The same period each time (the bills kept), then a period of its own each time (priced). */
  const keptAndPriced = async (url: (minutesBack: number) => string, warmup: number, requests: number) => ({
    kept: await timeRequests(url(0), token, warmup, requests),
    priced: await timeRequests((i) => url(i + 1), token, warmup, requests),
  });

  const monthUrl = costUrl(seed.blockId, monthStart, end);
  const month = await keptAndPriced(monthUrl, WARMUP, REQUESTS);
  const priced = month.kept.body.data.sources.filter((s) => s.priced).length;
  console.log(`machine: ${machine()}, PostgreSQL`);
  console.log(
    `demo building ${monthStart.toISOString()} .. ${end.toISOString()}: ${priced} sources priced, totals ${JSON.stringify(month.kept.body.data.totals)}`,
  );
  console.log(`energy-cost over HTTP, ${REQUESTS} sequential requests (target p50 < 20 ms):`);
  console.log(`  the same month (bills kept): ${summary(month.kept)}`);
  console.log(`  a period of its own each (priced): ${summary(month.priced)}`);

  const yearStart = Date.UTC(2025, 0, 1) - 2 * 3600_000;
  const yearBlock = await yearBuilding(base, token, seed.accountId, seed.tariffIds.gridTariffId, yearStart);
  const yearUrl = costUrl(yearBlock, new Date(yearStart), new Date(Date.UTC(2026, 0, 1) - 2 * 3600_000));
  const year = await keptAndPriced(yearUrl, 5, YEAR_REQUESTS);
  console.log(
    `5 sources x a year of 30-minute readings (${SOURCES.length * 365 * 48} readings), ${YEAR_REQUESTS} sequential requests (target p50 < 15 ms); totals ${JSON.stringify(year.kept.body.data.totals)}:`,
  );
  console.log(`  the same year (bills kept): ${summary(year.kept)}`);
  console.log(`  a period of its own each (priced): ${summary(year.priced)}`);
} finally {
  await service?.stop();
  await db.close();
  await database.drop();
}
