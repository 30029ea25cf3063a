/**
 * Decision endpoints benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/decisions.ts
 * Seeds the demo into a database of its own, then over HTTP on a real socket, one request at a time:
 * a tariff comparison of a grid meter with 12 months of 30-minute readings (its tariff the demo's
 * Homeflex time-of-use) against 20 candidate tariffs (the organization's and the catalogue's); the
 * tenant recovery of a site with 50 tenant units (at two depths) over a month of 30-minute readings;
 * the check of an invoice of that site's supply for the month.
 */
import { loadavg } from 'node:os';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { notifyOtherProcesses } from '../src/db/read-cache.ts';
import type { Database } from '../src/db/types.ts';
import { ReadingBatch } from '../src/modules/timeseries/readings.ts';
import { prepareReadings, storeReadings } from '../src/modules/timeseries/store-readings.ts';
import { seedDemoWithApp, serveDemo } from './demo-app.ts';
import { freshDatabase, gridInvoice, machine, percentile, requireDatabaseUrl } from './support.ts';

const SLOT_MS = 30 * 60_000;
const CANDIDATES = 20;
const TENANTS = 50;
const CATALOGUE = 'ca7a1060-0000-4000-8000-000000000001';

const summary = (timings: number[]) =>
  `p50 ${percentile(timings, 50).toFixed(1)} ms, p95 ${percentile(timings, 95).toFixed(1)} ms, p99 ${percentile(timings, 99).toFixed(1)} ms`;

/** Sequential GETs of url: the sorted latencies of the timed ones and the last body. */
async function timeRequests(url: string, token: string, warmup: number, requests: number) {
  const timings: number[] = [];
  let body: unknown;
  for (let i = 0; i < warmup + requests; i++) {
    const began = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    body = await res.json();
    if (res.status !== 200) throw new Error(`status ${res.status}: ${JSON.stringify(body)}`);
    if (i >= warmup) timings.push(performance.now() - began);
  }
  return { timings: timings.sort((a, b) => a - b), body };
}

/** A building block with its own meter of `slots` 30-minute readings from `from`, its config's grid source. */
async function meteredBlock(
  db: Database,
  accountId: string,
  options: { name: string; serial: string; from: number; slots: number; parentId?: number },
) {
  const [block] = await db.query<{ id: number }>(
    `INSERT INTO building_blocks (account_id, parent_id, name, building_type, address, city, state, postal_code, country)
     VALUES ($1, $2, $3, 'COMMERCIAL', '1 Main Rd', 'Johannesburg', 'Gauteng', 2001, 'ZA') RETURNING id`,
    [accountId, options.parentId ?? null, options.name],
  );
  const [meter] = await db.query<{ id: number }>(
    `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, interval_minutes, notified_max_demand_kva)
     VALUES ($1, $2, $3, 'ELECTRICITY', 30, 150) RETURNING id`,
    [accountId, block!.id, options.serial],
  );
  const batch = new ReadingBatch(options.slots);
  for (let i = 0; i < options.slots; i++) {
    const kwh = 1 + ((i * 7919) % 100) / 100;
    batch.push(meter!.id, options.from + i * SLOT_MS, kwh, 0, kwh / 4, kwh * 2, kwh * 2.2);
  }
  await db.transaction((tx) => storeReadings(tx, accountId, prepareReadings(batch), notifyOtherProcesses));
  return { blockId: block!.id, meterId: meter!.id };
}

/** PUT of a block's config through the API, so that the source's tariff is recorded in its history. */
async function configure(base: string, token: string, accountId: string, blockId: number, body: object) {
  const res = await fetch(`${base}/api/v1/building_blocks/${blockId}/config`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ account_id: accountId, ...body }),
  });
  if (res.status !== 200) throw new Error(`config: ${res.status} ${await res.text()}`);
}

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_decisions');
const db = openPostgresDatabase(database.url);
try {
  await migrate(db);
  const seed = await seedDemoWithApp(db, database.url);
  if (!seed) throw new Error('demo seed did not run');
  const { app, base, token } = await serveDemo(db, database.url);
  console.log(
    `machine: ${machine()}, PostgreSQL, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const yearStart = Date.UTC(2025, 0, 1) - 2 * 3600_000;
  const yearEnd = Date.UTC(2026, 0, 1) - 2 * 3600_000;
  const gridTariff = seed.tariffIds.gridTariffId;
  const site = await meteredBlock(db, seed.accountId, {
    name: 'Compared',
    serial: 'COMPARED-GRID',
    from: yearStart,
    slots: (yearEnd - yearStart) / SLOT_MS,
  });
  await configure(base, token, seed.accountId, site.blockId, {
    grid_meter_id: site.meterId,
    grid_tariff_id: gridTariff,
  });
  const candidates = await db.query<{ id: number }>(
    `SELECT id FROM tariffs WHERE deleted_at IS NULL AND meter_type = 'ELECTRICITY' AND currency = 'ZAR'
       AND (account_id = $1 OR account_id = $2) ORDER BY account_id = $2 DESC, id LIMIT $3`,
    [seed.accountId, CATALOGUE, CANDIDATES],
  );
  // Clones of catalogue tariffs (the organization's own copies) make up the 20.
  for (let i = 0; candidates.length < CANDIDATES; i++) {
    const res = await fetch(`${base}/api/v1/tariffs/catalogue/${candidates[i]!.id}/clone`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ account_id: seed.accountId }),
    });
    if (res.status !== 201) throw new Error(`clone: ${res.status} ${await res.text()}`);
    candidates.push({ id: ((await res.json()) as { data: { id: number } }).data.id });
  }
  const comparison = new URLSearchParams({
    account_id: seed.accountId,
    start: new Date(yearStart).toISOString(),
    end: new Date(yearEnd).toISOString(),
    tariff_ids: candidates.map((c) => c.id).join(','),
  });
  const compared = await timeRequests(
    `${base}/api/v1/building_blocks/${site.blockId}/tariff-comparison?${comparison}`,
    token,
    3,
    40,
  );
  const body = compared.body as { data: { current: { total: number }; candidates: { total: number | null }[] } };
  console.log(
    `tariff comparison, 12 months of 30-minute readings (${(yearEnd - yearStart) / SLOT_MS}) x ${candidates.length} candidates, 40 sequential requests: ${summary(compared.timings)} (target p50 < 300 ms, p99 < 1 s); current ${body.data.current.total}, ${body.data.candidates.filter((c) => c.total !== null).length} priced`,
  );

  // Recovery: a site whose grid is the supply and 50 tenant units below it (25 under a building,
  // 25 right under the site), each a meter with a month of 30-minute readings on the demo tariff.
  const monthStart = Date.UTC(2025, 2, 1) - 2 * 3600_000;
  const monthEnd = Date.UTC(2025, 3, 1) - 2 * 3600_000;
  const monthSlots = (monthEnd - monthStart) / SLOT_MS;
  const landlord = await meteredBlock(db, seed.accountId, {
    name: 'Landlord',
    serial: 'LANDLORD-GRID',
    from: monthStart,
    slots: monthSlots,
  });
  await configure(base, token, seed.accountId, landlord.blockId, {
    grid_meter_id: landlord.meterId,
    grid_tariff_id: gridTariff,
  });
  const wing = await meteredBlock(db, seed.accountId, {
    name: 'Wing',
    serial: 'WING-GRID',
    from: monthStart,
    slots: 0,
    parentId: landlord.blockId,
  });
  for (let i = 0; i < TENANTS; i++) {
    const unit = await meteredBlock(db, seed.accountId, {
      name: `Unit ${i + 1}`,
      serial: `UNIT-${i + 1}`,
      from: monthStart,
      slots: monthSlots,
      parentId: i % 2 === 0 ? wing.blockId : landlord.blockId,
    });
    await configure(base, token, seed.accountId, unit.blockId, {
      grid_meter_id: unit.meterId,
      grid_tariff_id: gridTariff,
    });
  }
  const recoveryQuery = new URLSearchParams({
    account_id: seed.accountId,
    start: new Date(monthStart).toISOString(),
    end: new Date(monthEnd).toISOString(),
  });
  const recovered = await timeRequests(
    `${base}/api/v1/building_blocks/${landlord.blockId}/recovery?${recoveryQuery}`,
    token,
    3,
    30,
  );
  const recoveredBody = recovered.body as { data: { tenants: unknown[]; unrecovered: unknown } };
  console.log(
    `recovery, a month of 30-minute readings, supply + ${recoveredBody.data.tenants.length} tenant units, 30 sequential requests: ${summary(recovered.timings)} (target p50 < 500 ms); unrecovered ${JSON.stringify(recoveredBody.data.unrecovered)}`,
  );

  // Invoice check: an invoice of the landlord's supply for the month, checked line by line.
  const invoiceRes = await fetch(`${base}/api/v1/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(
      gridInvoice(
        { accountId: seed.accountId, blockId: landlord.blockId, invoiceNumber: 'BENCH-0001' },
        { issuedOn: '2025-04-05', start: new Date(monthStart), end: new Date(monthEnd) },
        { days: 31, serviceAmount: 100 },
      ),
    ),
  });
  if (invoiceRes.status !== 201) throw new Error(`invoice: ${invoiceRes.status} ${await invoiceRes.text()}`);
  const invoiceId = ((await invoiceRes.json()) as { data: { id: number } }).data.id;
  const checked = await timeRequests(
    `${base}/api/v1/invoices/${invoiceId}/check?account_id=${seed.accountId}`,
    token,
    10,
    200,
  );
  const checkBody = checked.body as { data: { status: string; flags: unknown[] } };
  console.log(
    `invoice check, a month of 30-minute readings, 200 sequential requests: ${summary(checked.timings)} (target p50 < 30 ms); ${checkBody.data.status}, ${checkBody.data.flags.length} flags`,
  );
  await app.close();
} finally {
  await db.close();
  await database.drop();
}
