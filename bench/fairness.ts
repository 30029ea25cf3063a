/**
 * Fairness benchmark against PostgreSQL:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/fairness.ts [seconds]
 * Creates a database of its own on that server (dropped at the end) and starts the service, seeded
 * with the demo, as a process of its own; the demo meters are stretched to a year of readings. One
 * user signs up and creates 16 organizations, each with a building whose grid meter has the demo
 * grid meter's year of readings, priced with a clone of the catalogue's Homeflex time-of-use
 * tariff. Then autocannon floods the 16 buildings' energy cost over the last 365 days (round
 * robin) at 50 connections, while the demo organization, another user's, prices its building over
 * the last 30 days, reads one of its tariffs (read cache) and lists its meters (from the database), each at a fixed rate. The demo's
 * requests run the same length of time alone first: the run prints their p99 alone and during the
 * flood, and the ratio against the target (within 3x). FLOOD_USERS=n (default 1) spreads the 16
 * organizations over n users of their own (round robin), each flooding with its own token.
 * FLOOD=comparison floods with the tariff comparison of the year against every comparable tariff,
 * FLOOD=recovery with the tenant recovery of the year (TENANTS tenant blocks under each building,
 * 4 by default, each with a grid meter like its own), FLOOD=ingest with readings bodies of
 * INGEST_READINGS readings (50,000 by default), the same ones again each time.
 * FLOOD=profile floods with the grid meters' 30-minute energy profile over the last 30 days
 * instead of the year's building cost (each request another period, so never kept), FLOOD=power
 * with their 30-minute power profile (from the database), FLOOD=calendar with their energy profile
 * of the last 365 days by local day (Africa/Johannesburg); FLOOD=kept
 * with the same profile each time, which the service keeps from its second request on and sends
 * as bytes made once. FLOOD=invoice
 * floods with the check of an invoice of each building's grid over the last 365 days, with a
 * tolerance of 0 and of 100 percent in turn: every check's outcome differs from the one kept, and
 * is written. FLOOD=list floods with the first page of each organization's tariff list, 100 tariffs
 * (copies of its clone, written with SQL): cheap requests, not admitted as expensive ones. FLOOD=write
 * floods with updates of each organization's tariff (PUT, the tax rate 15 and 16 in turn), FLOOD=login
 * with sign-ins of the flooding users with a wrong password (each an Argon2 hash; the service runs
 * with no limit by client address, as an attacker from many addresses meets it), FLOOD=unauthenticated
 * with tariff lists carrying a flooder's token with its signature changed, FLOOD=public with a public
 * path (PUBLIC_PATH, the OpenAPI document of about 630 kB by default; PUBLIC_ENCODING br, gzip or
 * identity), FLOOD=body with bodies of
 * about the largest size allowed (1 MiB), a building block whose one field is an array of numbers
 * (BODY_NUMBERS of BODY_DIGITS digits; with BODY_SHAPE=objects, as many objects, each of a key no
 * earlier body had): parsed, then refused (400). FLOOD=mix floods each organization with another
 * expensive route in turn (building cost, comparison, recovery, invoice check, calendar profile of
 * the year); with FLOOD_USERS=20 FLOOD_ORGANIZATIONS=20, twenty users each flooding one. FLOOD=invoices
 * floods with the first page of each organization's invoices (INVOICES of 200 lines of 200
 * characters each). FLOOD=trickle opens FLOOD_CONNECTIONS connections that send a chunked sign-in body
 * a byte at a time, never ending it. FLOOD=login with TRUST_PROXY=127.0.0.1 sends each sign-in
 * through the proxy from one of FORWARDED_ADDRESSES (50) client addresses. The service's settings
 * (EXPENSIVE_CONCURRENCY_PER_USER, EXPENSIVE_CONCURRENCY_PER_ORG, ...) pass through from the
 * environment. With SERVICE_CPU_PROFILE_DIR set, the service writes a CPU profile of the whole run
 * there (node --cpu-prof) when it stops.
 */
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import {
  ALTERNATE_TAX_RATE,
  atFixedRate,
  describeLatency,
  describeStatuses,
  eventLoopDelay,
  FORWARDED_FOR,
  FRESH_KEYS,
  fiveHundreds,
  rebuildRollups,
  startSeededService,
  stretchToAYear,
  VARY_PERIOD,
  VARY_TOLERANCE,
} from './flood.ts';
import { apiClient, gridInvoice, machine, percentile } from './support.ts';

// 60 s by default: at 4 bills a second, a p99 over fewer answers is that of one or two slow ones.
const SECONDS = Number(process.argv[2] ?? 60);
const FLOOD_CONNECTIONS = 50;
const FLOOD_ORGANIZATIONS = Number(process.env.FLOOD_ORGANIZATIONS ?? 16);
/** FLOOD=invoices: the invoices of each flooding organization, each of the most lines allowed. */
const INVOICES = Number(process.env.INVOICES ?? 20);
const FLOOD_USERS = Number(process.env.FLOOD_USERS ?? 1);
/** FLOOD=recovery: tenant blocks under each flooded building, each with a grid meter like its own (TENANTS). */
const TENANTS = Number(process.env.TENANTS ?? 4);
/** FLOOD=ingest: readings a request posts (INGEST_READINGS, at most the endpoint's 50,000). */
const INGEST_READINGS = Number(process.env.INGEST_READINGS ?? 50_000);
/** FLOOD=list: the tariffs of each flooding organization, and the page of its list the flood reads (the most a page holds). */
const LIST_PAGE = 100;
/**
 * FLOOD=body: a body of just under the 1 MiB body limit that costs the most to parse of those the
 * service parses at all (at most 20,000 values): numbers of 50 digits. BODY_NUMBERS=524000
 * BODY_DIGITS=1 sends 1 MiB of "0,", which the service refuses before parsing.
 */
const BODY_NUMBERS = Number(process.env.BODY_NUMBERS ?? 19_990);
const BODY_DIGITS = Number(process.env.BODY_DIGITS ?? 50);
/**
 * FLOOD=body BODY_SHAPE=objects: the field holds BODY_NUMBERS objects instead, each of one key of
 * 40 characters no other object (and no earlier body) has: every object a new shape for V8 to make.
 */
const BODY_SHAPE = process.env.BODY_SHAPE ?? 'numbers';
/** A body field of BODY_NUMBERS values of BODY_SHAPE. */
function bodyValues(): string {
  if (BODY_SHAPE === 'objects') {
    return Array.from({ length: BODY_NUMBERS }, (_, i) => `{"k@@@@@@${String(i).padStart(33, 'k')}":0}`).join(',');
  }
  const digit = BODY_DIGITS === 1 ? '0' : `1.${'3'.repeat(BODY_DIGITS - 2)}`;
  return Array.from({ length: BODY_NUMBERS }, () => digit).join(',');
}
/** FLOOD=public: the path asked for without a token (PUBLIC_PATH, the OpenAPI document by default), in PUBLIC_ENCODING (br by default, gzip, or identity for none). */
const PUBLIC_PATH = process.env.PUBLIC_PATH ?? '/api/v1/openapi.json';
const PUBLIC_ENCODING = process.env.PUBLIC_ENCODING ?? 'br';
const FLOODS = {
  cost: 'building cost over 365 days',
  profile: '30-minute energy profile over 30 days',
  power: '30-minute power profile over 30 days (read from the database)',
  calendar: 'energy profile of a year by local day (Africa/Johannesburg)',
  kept: '30-minute energy profile over the same 30 days each time (kept from its second request)',
  comparison: 'tariff comparison over 365 days',
  recovery: `tenant recovery over 365 days (${TENANTS} tenants a building)`,
  invoice: 'invoice check of a year, its outcome written each time',
  ingest: `readings ingest of ${INGEST_READINGS.toLocaleString('en')} readings a request (the same ones again: each replaces them)`,
  list: `tariff list pages of ${LIST_PAGE} tariffs (each organization holding that many)`,
  write: 'updates of the clone tariff, each a write transaction (its tax rate alternating)',
  login: 'sign-ins with a wrong password (no limit by address, as from many addresses)',
  unauthenticated: 'tariff lists with a token whose signature is wrong (401)',
  public: `${PUBLIC_PATH} without a token, in ${PUBLIC_ENCODING}`,
  mix: 'each organization another expensive route (cost, comparison, recovery, invoice check, calendar profile)',
  invoices: `invoice list pages (${INVOICES} invoices of 200 lines of 200 characters each organization)`,
  trickle: 'chunked sign-in bodies sent a byte every 100 ms, never ended (unauthenticated)',
  body:
    BODY_SHAPE === 'objects'
      ? `building blocks posted with a body of ${BODY_NUMBERS.toLocaleString('en')} objects, each of a key never seen before (about 1 MiB), parsed, then failing validation (400)`
      : `building blocks posted with a body of ${BODY_NUMBERS.toLocaleString('en')} numbers of ${BODY_DIGITS} digits (about 1 MiB), parsed, then failing validation (400)`,
} as const;
type Flood = keyof typeof FLOODS;
const FLOOD = (process.env.FLOOD ?? 'cost') as Flood;
/** FLOOD=mix: the expensive routes the organizations flood, one each in turn. */
const MIX = ['cost', 'comparison', 'recovery', 'invoice', 'calendar'] as const satisfies Flood[];
const kindOf = (i: number): Flood => (FLOOD === 'mix' ? MIX[i % MIX.length]! : FLOOD);
if (!(FLOOD in FLOODS)) throw new Error(`FLOOD: one of ${Object.keys(FLOODS).join(', ')}`);
const COST_RATE_PER_S = 4;
const TARIFF_RATE_PER_S = 25;
/** The demo's meter list, a read that goes to the database (no cache): whether its query waits behind the flood's. */
const METER_LIST_RATE_PER_S = 10;
const TARGET_RATIO = 3;
/** The catalogue's Homeflex time-of-use tariff (id fixed by migration 0004), the demo grid's tariff. */
const HOMEFLEX_TOU = 6;
const DAY_MS = 86_400_000;
const PORT = '3904';
const base = `http://127.0.0.1:${PORT}`;

const profilePath = (
  meterSn: string,
  accountId: string,
  days: number,
  { kind = 'energy', buckets = { bucket_minutes: '30' } as Record<string, string> } = {},
) => {
  const end = new Date();
  const start = new Date(end.getTime() - days * DAY_MS);
  const query = new URLSearchParams({
    account_id: accountId,
    meter_sn: meterSn,
    start: start.toISOString(),
    end: end.toISOString(),
    ...buckets,
  });
  return `/api/v1/timeseries/electricity/${kind}-profile?${query}`;
};

const blockPath = (what: string, blockId: number, accountId: string, days: number, minutesBack = 0) => {
  const end = new Date(Date.now() - minutesBack * 60_000);
  const start = new Date(end.getTime() - days * DAY_MS);
  const query = new URLSearchParams({ account_id: accountId, start: start.toISOString(), end: end.toISOString() });
  return `/api/v1/building_blocks/${blockId}/${what}?${query}`;
};

/** A body of INGEST_READINGS 30-minute readings of the meter, from 2020 on (before the year priced). */
const ingestBody = (accountId: string, meterSn: string) => {
  const from = Date.parse('2020-01-01T00:00:00Z');
  const readings = Array.from({ length: INGEST_READINGS }, (_, i) => ({
    ts: new Date(from + i * 1_800_000).toISOString(),
    import_kwh: 1 + (i % 7) / 4,
  }));
  return JSON.stringify({ account_id: accountId, meter_sn: meterSn, readings });
};

/** An invoice of the building's grid over the last 365 days (whole minutes). */
const yearInvoice = (accountId: string, blockId: number) => {
  const end = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  return gridInvoice(
    { accountId, blockId, invoiceNumber: `FLOOD-${blockId}` },
    { issuedOn: end.toISOString().slice(0, 10), start: new Date(end.getTime() - 365 * DAY_MS), end },
    { days: 365, serviceAmount: 1000 },
  );
};

/** The floods of a building's year, by the path under its block. */
const BLOCK_PATHS = { cost: 'energy-cost', comparison: 'tariff-comparison', recovery: 'recovery' } as const;

const floodPath = (kind: Flood, i: number, blockId: number, accountId: string) => {
  if (kind === 'profile' || kind === 'kept') return profilePath(`FLOOD-${i}`, accountId, 30);
  if (kind === 'power') return profilePath(`FLOOD-${i}`, accountId, 30, { kind: 'power' });
  if (kind === 'calendar') {
    return profilePath(`FLOOD-${i}`, accountId, 365, { buckets: { group_by: 'day', tz: 'Africa/Johannesburg' } });
  }
  return blockPath(BLOCK_PATHS[kind as keyof typeof BLOCK_PATHS], blockId, accountId, 365);
};

/** An invoice of 200 lines of 200 characters each, the most an invoice holds. */
const longInvoice = (accountId: string, blockId: number, n: number) => {
  const invoice = yearInvoice(accountId, blockId);
  const lines = Array.from({ length: 200 }, (_, i) => ({
    description: `${'Line of a long invoice '.repeat(9)}${String(i).padStart(3, '0')}`.slice(0, 200),
    item_type_code: 'SERVICE',
    quantity: 1,
    unit: 'day',
    amount: 1,
  }));
  const subtotal = 200;
  return { ...invoice, invoice_number: `LONG-${blockId}-${n}`, lines, subtotal, tax: 30, total: 230 };
};

/** FLOOD=trickle: connections that send a chunked sign-in body a byte every 100 ms until `seconds` pass. */
async function trickle(seconds: number) {
  const { connect } = await import('node:net');
  const sockets = Array.from({ length: FLOOD_CONNECTIONS }, () => {
    const socket = connect(Number(PORT), '127.0.0.1');
    socket.on('error', () => {});
    socket.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
    );
    return socket;
  });
  const timer = setInterval(() => {
    for (const socket of sockets) socket.write('1\r\n \r\n');
  }, 100);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  clearInterval(timer);
  const closed = sockets.filter((socket) => socket.destroyed).length;
  for (const socket of sockets) socket.destroy();
  return { connections: sockets.length, closed };
}

const loadAverage = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');

const profileDir = process.env.SERVICE_CPU_PROFILE_DIR;
const { sql, stop } = await startSeededService(
  'ums_bench_fairness',
  PORT,
  profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
);
try {
  const demo = apiClient(base);
  await demo.login({ email: 'demo@example.com', password: 'demo-password' });
  const demoOrganizations = await demo.call<{ id: string; is_personal_account: boolean }[]>(
    'GET',
    '/api/v1/auth/organizations',
  );
  const demoAccount = demoOrganizations.find((o) => !o.is_personal_account)!.id;
  const {
    rows: [demoSite],
  } = await sql.query<{ building_block_id: number; grid_meter_id: number; grid_tariff_id: number }>(
    'SELECT building_block_id, grid_meter_id, grid_tariff_id FROM energy_dashboard_configs WHERE account_id = $1',
    [demoAccount],
  );
  const added = await stretchToAYear(sql, demoAccount);

  // FLOOD_USERS users (one by default), 16 organizations among them, each a building whose grid meter has a year of readings.
  const flooders: { client: ReturnType<typeof apiClient>; id: string; email: string }[] = [];
  for (let u = 0; u < FLOOD_USERS; u++) {
    const client = apiClient(base);
    const credentials = { email: `flooder-${u}-${Date.now()}@example.com`, password: 'correct horse battery' };
    const { user } = await client.call<{ user: { id: string } }>('POST', '/api/v1/auth/signup', credentials);
    await client.login(credentials);
    flooders.push({ client, id: user.id, email: credentials.email });
  }
  const floodRequests: autocannon.Request[] = [];
  for (let i = 0; i < FLOOD_ORGANIZATIONS; i++) {
    const { client: flooder, id: userId, email } = flooders[i % FLOOD_USERS]!;
    const organization = await flooder.call<{ id: string }>('POST', '/api/v1/organizations', {
      name: `Flood ${i}`,
      primary_owner_user_id: userId,
    });
    const tariff = await flooder.call<{ id: number }>('POST', `/api/v1/tariffs/catalogue/${HOMEFLEX_TOU}/clone`, {
      account_id: organization.id,
    });
    // A block with a grid meter of a year of readings, priced with the clone; for FLOOD=recovery,
    // TENANTS more as its children, each a tenant of its own.
    const blockWithMeter = async (meterSn: string, parentId: number | null) => {
      const {
        rows: [block],
      } = await sql.query<{ id: number }>(
        `INSERT INTO building_blocks (account_id, parent_id, name, building_type, address, city, state, postal_code, country)
         VALUES ($1, $2, $3, 'COMMERCIAL', '1 Main Rd', 'Johannesburg', 'Gauteng', 2001, 'ZA') RETURNING id`,
        [organization.id, parentId, meterSn],
      );
      const {
        rows: [meter],
      } = await sql.query<{ id: number }>(
        `INSERT INTO meters (account_id, building_block_id, meter_sn, meter_type, interval_minutes)
         VALUES ($1, $2, $3, 'ELECTRICITY', 30) RETURNING id`,
        [organization.id, block!.id, meterSn],
      );
      await sql.query(
        `INSERT INTO readings (meter_id, ts, import_kwh, export_kwh, kvarh, power_kw, kva)
         SELECT $1, ts, import_kwh, export_kwh, kvarh, power_kw, kva FROM readings WHERE meter_id = $2`,
        [meter!.id, demoSite!.grid_meter_id],
      );
      return { blockId: block!.id, meterId: meter!.id };
    };
    const supply = await blockWithMeter(`FLOOD-${i}`, null);
    const kind = kindOf(i);
    const tenants = [];
    for (let n = 0; n < (kind === 'recovery' ? TENANTS : 0); n++) {
      tenants.push(await blockWithMeter(`FLOOD-${i}-TENANT-${n}`, supply.blockId));
    }
    await rebuildRollups(sql, organization.id);
    // Through the API, as a user configures it: the source's tariff is recorded in its history.
    for (const { blockId, meterId } of [supply, ...tenants]) {
      await flooder.call('PUT', `/api/v1/building_blocks/${blockId}/config`, {
        account_id: organization.id,
        grid_meter_id: meterId,
        grid_tariff_id: tariff.id,
      });
    }
    const block = { id: supply.blockId };
    const headers = { authorization: `Bearer ${flooder.token}` };
    if (kind === 'ingest') {
      floodRequests.push({
        method: 'POST',
        path: '/api/v1/timeseries/electricity/readings',
        headers: { ...headers, 'content-type': 'application/json' },
        body: ingestBody(organization.id, `FLOOD-${i}`),
      });
    } else if (kind === 'list') {
      await sql.query(
        `INSERT INTO tariffs (account_id, name, description, dso_id, tou_schedule_id, meter_type, tariff_type, currency,
           tax_rate, is_active, effective_from, effective_to, timezone, notes, cloned_from)
         SELECT account_id, name || ' ' || n, description, dso_id, tou_schedule_id, meter_type, tariff_type, currency,
           tax_rate, is_active, effective_from, effective_to, timezone, notes, cloned_from
         FROM tariffs, generate_series(2, $2) n WHERE id = $1`,
        [tariff.id, LIST_PAGE],
      );
      const query = new URLSearchParams({ account_id: organization.id, limit: String(LIST_PAGE) });
      floodRequests.push({ method: 'GET', path: `/api/v1/tariffs?${query}`, headers });
    } else if (kind === 'write') {
      const { tou_schedule_id } = await flooder.call<{ tou_schedule_id: number }>(
        'GET',
        `/api/v1/tariffs/${tariff.id}?account_id=${organization.id}`,
      );
      floodRequests.push({
        method: 'PUT',
        path: `/api/v1/tariffs/${tariff.id}`,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ account_id: organization.id, tou_schedule_id, tax_rate: 15 }),
        setupRequest: ALTERNATE_TAX_RATE,
      });
    } else if (kind === 'login') {
      floodRequests.push({
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'not the password' }),
        ...(process.env.TRUST_PROXY ? { setupRequest: FORWARDED_FOR } : {}),
      });
    } else if (kind === 'invoices') {
      for (let n = 0; n < INVOICES; n++) {
        await flooder.call('POST', '/api/v1/invoices', longInvoice(organization.id, block.id, n));
      }
      const query = new URLSearchParams({ account_id: organization.id, limit: '100' });
      floodRequests.push({ method: 'GET', path: `/api/v1/invoices?${query}`, headers });
    } else if (kind === 'body') {
      floodRequests.push({
        method: 'POST',
        path: '/api/v1/building_blocks',
        headers: { ...headers, 'content-type': 'application/json' },
        body: `{"account_id":"${organization.id}","name":[${bodyValues()}]}`,
        ...(BODY_SHAPE === 'objects' && { setupRequest: FRESH_KEYS }),
      });
    } else if (kind === 'public') {
      const encoding = PUBLIC_ENCODING === 'identity' ? {} : { 'accept-encoding': PUBLIC_ENCODING };
      floodRequests.push({ method: 'GET', path: PUBLIC_PATH, headers: encoding });
    } else if (kind === 'unauthenticated') {
      const [header, payload, signature] = flooder.token!.split('.');
      const wrong = `${signature!.slice(1)}${signature!.startsWith('A') ? 'B' : 'A'}`;
      floodRequests.push({
        method: 'GET',
        path: `/api/v1/tariffs?account_id=${organization.id}`,
        headers: { authorization: `Bearer ${header}.${payload}.${wrong}` },
      });
    } else if (kind === 'invoice') {
      const invoice = await flooder.call<{ id: number }>(
        'POST',
        '/api/v1/invoices',
        yearInvoice(organization.id, block.id),
      );
      const query = new URLSearchParams({ account_id: organization.id });
      floodRequests.push({
        method: 'GET',
        path: `/api/v1/invoices/${invoice.id}/check?${query}`,
        headers,
        setupRequest: VARY_TOLERANCE,
      });
    } else {
      floodRequests.push({
        method: 'GET',
        path: floodPath(kind, i, block.id, organization.id),
        headers,
        ...(kind === 'kept' ? {} : { setupRequest: VARY_PERIOD }),
      });
    }
  }
  await sql.query('ANALYZE readings, readings_hourly, readings_daily');

  // The other organization's bills are all different periods too (ending a minute earlier each): priced, not kept.
  const costUrl = (i: number) => `${base}${blockPath('energy-cost', demoSite!.building_block_id, demoAccount, 30, i)}`;
  const tariffUrl = `${base}/api/v1/tariffs/${demoSite!.grid_tariff_id}?account_id=${demoAccount}`;
  const meterListUrl = `${base}/api/v1/meters?account_id=${demoAccount}`;
  const measure = (seconds: number) =>
    Promise.all([
      atFixedRate(costUrl, demo.token!, seconds, COST_RATE_PER_S),
      atFixedRate(tariffUrl, demo.token!, seconds, TARIFF_RATE_PER_S),
      atFixedRate(meterListUrl, demo.token!, seconds, METER_LIST_RATE_PER_S),
    ]);

  // Warm the caches and the plans, then the demo alone, then the demo during the flood.
  await measure(2);
  await eventLoopDelay(base);
  const loadBefore = loadAverage();
  const [quietCost, quietTariff, quietMeters] = await measure(SECONDS);
  const quietLoop = await eventLoopDelay(base);
  const [flood, [floodCost, floodTariff, floodMeters]] = await Promise.all([
    FLOOD === 'trickle'
      ? trickle(SECONDS)
      : // In a worker thread: the flood must not delay the measuring requests of this thread.
        autocannon({
          url: base,
          requests: floodRequests,
          connections: FLOOD_CONNECTIONS,
          duration: SECONDS,
          workers: 1,
        }),
    measure(SECONDS),
  ]);
  const floodLoop = await eventLoopDelay(base);
  const loadAfter = loadAverage();

  console.log(
    `machine: ${machine()}; service on PostgreSQL; load average (1/5/15 min) ${loadBefore} at the quiet phase's start, ${loadAfter} at the end`,
  );
  console.log(
    `demo stretched to a year (${added} readings added); ${FLOOD_ORGANIZATIONS} organizations of ${FLOOD_USERS} flooding user(s), each a year of 30-minute readings`,
  );
  if ('requests' in flood) {
    console.log(
      `flood: ${FLOODS[FLOOD]}, ${FLOOD_ORGANIZATIONS} organizations round robin, ${FLOOD_CONNECTIONS} connections, ${SECONDS} s: ${flood.requests.total} answers (${describeStatuses(flood.statusCodeStats as never)}), errors ${flood.errors}, timeouts ${flood.timeouts}; latency p50 ${flood.latency.p50} ms, p99 ${flood.latency.p99} ms`,
    );
  } else {
    console.log(`flood: ${FLOODS[FLOOD]}, ${flood.connections} connections, ${flood.closed} closed by the service`);
  }
  for (const [what, rate, quiet, loaded] of [
    ['building cost over 30 days', COST_RATE_PER_S, quietCost, floodCost],
    ['tariff read (cached)', TARIFF_RATE_PER_S, quietTariff, floodTariff],
    ['meter list (read from the database)', METER_LIST_RATE_PER_S, quietMeters, floodMeters],
  ] as const) {
    const ratio = percentile(loaded.latencies, 99) / percentile(quiet.latencies, 99);
    const refused = (loaded.statuses.get(429) ?? 0) + (loaded.statuses.get(503) ?? 0);
    const met = ratio <= TARGET_RATIO && refused === 0;
    console.log(`other organization, ${what} at ${rate}/s:`);
    console.log(`  quiet: ${describeLatency(quiet.latencies)}; statuses ${describeStatuses(quiet.statuses)}`);
    console.log(`  flood: ${describeLatency(loaded.latencies)}; statuses ${describeStatuses(loaded.statuses)}`);
    console.log(
      `  p99 flood / quiet: ${ratio.toFixed(2)}x, ${refused} answers 429 or 503 (target within ${TARGET_RATIO}x and none refused: ${met ? 'met' : 'missed'})`,
    );
  }
  console.log(`service event loop delay: quiet ${quietLoop}; during the flood ${floodLoop}`);
  const refusedWith500 = 'requests' in flood ? fiveHundreds(flood.statusCodeStats as never) : 0;
  console.log(`500 answers: ${refusedWith500} (required 0)`);
  if (refusedWith500 > 0) process.exitCode = 1;
} finally {
  await stop();
}
