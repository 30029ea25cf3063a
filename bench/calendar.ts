/**
 * Calendar profiles benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/calendar.ts
 * Seeds the demo into a database of its own (dropped at the end) and stretches its meters' 90 days
 * of 30-minute readings to 450 days (the demo's own readings, generated again for the four
 * 90-day periods before them, with their rollups). Then, through HTTP on a real socket, one
 * request at a time, asks for the last twelve whole local months (Africa/Johannesburg, the demo
 * site's zone): one meter by day and the demo building by month, and for comparison the meter by
 * day in other zones and by bucket_minutes=1440; prints latency percentiles of each.
 */
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { seedDemoReadings } from '../src/seed/demo-readings.ts';
import { seedDemoWithApp, serveDemo } from './demo-app.ts';
import { freshDatabase, machine, percentile, requireDatabaseUrl } from './support.ts';

const WARMUP = 20;
const REQUESTS = 200;
const DAY_MS = 86_400_000;
const EARLIER_PERIODS = 4;
const DEMO_PERIOD_DAYS = 90;
/** The demo site's zone: UTC+2 all year. */
const SITE_OFFSET_MS = 2 * 3_600_000;

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_calendar');
const db = openPostgresDatabase(database.url);
try {
  await migrate(db);
  const now = new Date();
  const seed = await seedDemoWithApp(db, database.url, now);
  if (!seed) throw new Error('demo seed did not run');
  for (let period = 1; period <= EARLIER_PERIODS; period++) {
    const periodEnd = new Date(now.getTime() - period * DEMO_PERIOD_DAYS * DAY_MS);
    await db.transaction((tx) => seedDemoReadings(tx, seed.meterIds, periodEnd));
  }
  await db.query('ANALYZE');
  const { app, base, token } = await serveDemo(db, database.url);
  const [gridSn] = (
    await db.query<{ meter_sn: string }>('SELECT meter_sn FROM meters WHERE id = $1', [seed.meterIds.grid])
  ).map((r) => r.meter_sn);

  // The last twelve whole months of the site's calendar, as instants with its offset.
  const local = new Date(now.getTime() + SITE_OFFSET_MS);
  const monthStart = (monthsBack: number) =>
    new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() - monthsBack, 1) - SITE_OFFSET_MS).toISOString();
  const range = { start: monthStart(12), end: monthStart(0) };

  async function measure(name: string, path: string, query: Record<string, string>) {
    const url = `${base}${path}?${new URLSearchParams({ account_id: seed!.accountId, ...range, ...query })}`;
    const timings: number[] = [];
    let buckets = 0;
    for (let i = 0; i < WARMUP + REQUESTS; i++) {
      const began = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.json()) as { data: unknown[] };
      if (res.status !== 200) throw new Error(`${name}: status ${res.status}: ${JSON.stringify(body)}`);
      if (i >= WARMUP) timings.push(performance.now() - began);
      buckets = body.data.length;
    }
    timings.sort((a, b) => a - b);
    const p = (n: number) => `${percentile(timings, n).toFixed(2)} ms`;
    console.log(`| ${name} | ${buckets} | ${p(50)} | ${p(95)} | ${p(99)} |`);
  }

  console.log(
    `machine: ${machine()}, PostgreSQL; ${range.start} .. ${range.end}; ${REQUESTS} sequential requests each`,
  );
  console.log('| request | buckets | p50 | p95 | p99 |');
  const meter = '/api/v1/timeseries/electricity/energy-profile';
  const byDay = (tz: string) => ({ meter_sn: gridSn!, group_by: 'day', tz });
  await measure('meter-year by day, Africa/Johannesburg', meter, byDay('Africa/Johannesburg'));
  await measure(
    'building-year by month, Africa/Johannesburg',
    `/api/v1/building_blocks/${seed.blockId}/energy-profile`,
    {
      group_by: 'month',
      tz: 'Africa/Johannesburg',
    },
  );
  await measure('meter-year by day, UTC', meter, byDay('UTC'));
  await measure('meter-year by day, Europe/London', meter, byDay('Europe/London'));
  await measure('meter-year by day, Asia/Kolkata', meter, byDay('Asia/Kolkata'));
  await measure('meter-year by month, Africa/Johannesburg', meter, {
    meter_sn: gridSn!,
    group_by: 'month',
    tz: 'Africa/Johannesburg',
  });
  await measure('meter-year, bucket_minutes=1440', meter, { meter_sn: gridSn!, bucket_minutes: '1440' });
  await app.close();
} finally {
  await db.close();
  await database.drop();
}
