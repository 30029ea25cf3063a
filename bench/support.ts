import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, readFileSync } from 'node:fs';
import { Agent, get as httpGet } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';

/** Benchmarks run against PostgreSQL: DATABASE_URL names the server (any database on it). */
export function requireDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('Set DATABASE_URL to a PostgreSQL server, e.g. postgres://postgres@127.0.0.1:5432/test');
    process.exit(2);
  }
  return url;
}

export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

/** A fresh database of its own on the server; drop() removes it. */
export async function freshDatabase(serverUrl: string, prefix: string) {
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    url: withDatabase(serverUrl, name),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** The Node.js flags `npm start` runs the service with (package.json), so that a benchmark measures the service as it runs. */
function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  return (scripts.start as string).split(' ').filter((word) => word.startsWith('--'));
}

/** Starts a Node script as a separate process and waits until readyUrl answers 200. */
export async function startProcess(
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<ChildProcess> {
  // The Node.js flags of `npm start`, then SERVICE_NODE_OPTIONS: flags for the service's Node.js
  // only, e.g. '--cpu-prof --cpu-prof-dir=prof'.
  // SERVICE_STDOUT=1: the service's standard output on this one's (e.g. what --trace-gc prints).
  const nodeFlags = [...startFlags(), ...(process.env.SERVICE_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [])];
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', ...args], {
    env: { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'ums-bench-')), ...env },
    stdio: ['ignore', process.env.SERVICE_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${args[0]} exited with ${child.exitCode}`);
    const ready = await fetch(readyUrl).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`${args[0]} did not start`);
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export function percentile(sortedMs: number[], p: number): number {
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))]!;
}

export function machine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The latencies in ms of `requests` sequential calls of send, after `warmup` untimed ones; sorted. */
export async function sequentialTimes(warmup: number, requests: number, send: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < warmup + requests; i++) {
    const started = performance.now();
    await send();
    if (i >= warmup) times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const keepAlive = new Agent({ keepAlive: true });

/**
 * A GET as a browser sends it: accepting br and gzip, over a kept-alive connection, the body
 * decompressed in one call once it has all come (undici's fetch pipes it through a zlib stream in
 * 16 kB pieces, which took 4 to 6 ms of a 125 kB answer's time: docs/PERFORMANCE.md).
 */
export function getDecoded(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(
      url,
      { agent: keepAlive, headers: { 'accept-encoding': 'br, gzip', ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const decoded =
            encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes;
          resolve({ status: res.statusCode!, body: decoded.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

/** A client of the service at base: JSON in and out, the envelope's data returned, anything but 2xx thrown. */
export function apiClient(base: string) {
  let token: string | undefined;
  const call = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: T };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  return {
    call,
    get: <T = any>(path: string, query: Record<string, string | number>) =>
      call<T>('GET', `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`),
    get token() {
      return token;
    },
    /** Logs in (signing up first when asked); later calls carry the token. */
    async login(credentials: { email: string; password: string }, signup = false) {
      if (signup) await call('POST', '/api/v1/auth/signup', credentials);
      token = (await call<{ access_token: string }>('POST', '/api/v1/auth/login', credentials)).access_token;
      return token;
    },
  };
}

/** A deterministic stream of values with 3 decimals (meters report whole Wh). */
export function values(seed: number) {
  let state = seed;
  return (max: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.round((state / 2_147_483_648) * max * 1000) / 1000;
  };
}

const INTERVAL_MS = 30 * 60_000;

/**
 * Writes a CSV for the import command: 30-minute readings of each serial over [from, to), ordered
 * by meter then time, as a meter's file or a month's export of many meters comes.
 */
export async function writeReadingsCsv(path: string, serials: string[], from: number, to: number, seed = 7) {
  const out = createWriteStream(path);
  out.write('meter_sn,ts,import_kwh,export_kwh,kvarh\n');
  const next = values(seed);
  const times = Array.from({ length: Math.ceil((to - from) / INTERVAL_MS) }, (_, i) =>
    new Date(from + i * INTERVAL_MS).toISOString(),
  );
  for (const serial of serials) {
    let chunk = '';
    for (const time of times) chunk += `${serial},${time},${next(25)},${next(3)},${next(10)}\n`;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/**
 * The body of an invoice of the block's grid over [start, end): an energy line of 1,000 kWh for
 * 3,000.00 and a service line of `days` days for `serviceAmount`, with 15% tax.
 */
export function gridInvoice(
  { accountId, blockId, invoiceNumber }: { accountId: string; blockId: number; invoiceNumber: string },
  { issuedOn, start, end }: { issuedOn: string; start: Date; end: Date },
  { days, serviceAmount }: { days: number; serviceAmount: number },
) {
  const subtotal = 3000 + serviceAmount;
  const tax = subtotal * 0.15;
  return {
    account_id: accountId,
    building_block_id: blockId,
    supplier: 'City Power',
    invoice_number: invoiceNumber,
    issued_on: issuedOn,
    start: start.toISOString(),
    end: end.toISOString(),
    currency: 'ZAR',
    lines: [
      { description: 'Energy', item_type_code: 'TOU_PEAK_ENERGY', quantity: 1000, unit: 'kWh', amount: 3000 },
      { description: 'Service', item_type_code: 'SERVICE', quantity: days, unit: 'day', amount: serviceAmount },
    ],
    subtotal,
    tax,
    total: subtotal + tax,
  };
}
