import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../../test/helpers/building-factories.ts';
import { directUrl } from '../../test/helpers/database-url.ts';
import { createOrganization, registerUser, type TestUser } from '../../test/helpers/factories.ts';
import { listenerProxy } from '../../test/helpers/listener-proxy.ts';
import { onPostgres } from '../../test/helpers/races.ts';
import { secondProcess } from '../../test/helpers/second-process.ts';
import { createItems, createTariff } from '../../test/helpers/tariff-factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { at, ingest, TIMESERIES } from '../../test/helpers/timeseries-factories.ts';

const STALE_MS = 500;
const MONTH_START = '2025-06-10T00:00:00.000Z';
/** The most a test waits for an event (a loaded 2-core machine is slow, never this slow). */
const PATIENCE_MS = 30_000;

/** Polls until check() holds (every 20 ms, at most PATIENCE_MS): waits for an event, not a time. */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = performance.now() + PATIENCE_MS;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

let t: TestApp;
let owner: TestUser;
let accountId: string;
beforeAll(async () => {
  t = await startTestApp();
  owner = await registerUser(t.app, 'owner');
  accountId = await createOrganization(owner);
});
afterAll(async () => t.close());

describe.runIf(onPostgres)('a process whose LISTEN connection stops forwarding without closing', () => {
  let proxy: Awaited<ReturnType<typeof listenerProxy>>;
  let other: Awaited<ReturnType<typeof secondProcess>>;
  const logs: { cacheListener?: string; msg: string; level: number }[] = [];

  beforeAll(async () => {
    // The LISTEN connection goes to PostgreSQL itself (past the pooler, when the tests run through one).
    proxy = await listenerProxy(directUrl(t.databaseUrl!));
    const logStream = new PassThrough();
    logStream.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logs.push(JSON.parse(line));
    });
    other = await secondProcess(
      t.databaseUrl!,
      owner,
      { DATABASE_LISTEN_URL: proxy.url, CACHE_STALE_MS: String(STALE_MS), LOG_LEVEL: 'info' },
      logStream,
    );
  });
  afterAll(async () => {
    proxy?.resume();
    await other?.close();
    await proxy?.close();
  });

  async function metric(name: string): Promise<number> {
    const res = await other.app.inject({ method: 'GET', url: '/metrics' });
    const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(res.body);
    if (!match) throw new Error(`${name} missing from /metrics`);
    return Number(match[1]);
  }

  const listenerStates = () => logs.filter((line) => line.cacheListener).map((line) => line.cacheListener);

  async function priceOnOther(tariffId: number): Promise<number> {
    const res = await other.client.get(`/api/v1/tariffs/${tariffId}`, { account_id: accountId });
    expect(res.status).toBe(200);
    return res.body.data.tariff_items[0].price;
  }

  /** The imported kWh of the meter's first reading in a profile of the other process, of a period never asked for. */
  let periods = 0;
  async function importedOnOther(meterSn: string): Promise<number> {
    const start = at(MONTH_START, -++periods);
    const res = await other.client.get(`${TIMESERIES}/energy-profile`, {
      account_id: accountId,
      meter_sn: meterSn,
      start,
      end: at(start, 24 * 60),
    });
    expect(res.status).toBe(200);
    return res.body.data[0].import_kwh;
  }

  it('stops serving cached data within CACHE_STALE_MS, says so, and listens again once it forwards', async () => {
    await until('the cache to listen', async () => (await metric('ums_cache_listening')) === 1);
    const tariff = await createTariff(owner.client, accountId);
    const [item] = await createItems(owner.client, tariff.id, { item_type_code: 'IMPORT_ENERGY', price: 1 });
    const change = (price: number) =>
      owner.client.put(`/api/v1/tariffs/${tariff.id}/items/${item.id}`, { account_id: accountId, price });
    const meter = await createMeter(owner.client, accountId, (await createBlock(owner.client, accountId)).id);
    const read = (import_kwh: number) =>
      ingest(owner.client, accountId, meter.meter_sn, [{ ts: MONTH_START, import_kwh }]);
    await read(1);

    // Cached on the other process: a second read is a hit. Its month of readings is kept there.
    expect(await priceOnOther(tariff.id)).toBe(1);
    const hits = await metric('ums_cache_hits_total');
    expect(await priceOnOther(tariff.id)).toBe(1);
    expect(await metric('ums_cache_hits_total')).toBeGreaterThan(hits);
    await until('the other process to see the reading', async () => (await importedOnOther(meter.meter_sn)) === 1);

    proxy.freeze();
    expect((await change(2)).status).toBe(200);
    await read(5);
    const written = performance.now();
    // The change's notice never arrives; a read begun CACHE_STALE_MS after the change still sees
    // it, and a profile of another period of the month kept sees the new reading.
    const staleReads: number[] = [];
    let price = 1;
    let imported = 1;
    await until('the other process to see the change', async () => {
      const startedLate = performance.now() - written > STALE_MS;
      price = await priceOnOther(tariff.id);
      imported = await importedOnOther(meter.meter_sn);
      if (startedLate && (price !== 2 || imported !== 5)) staleReads.push(price, imported);
      return startedLate;
    });
    expect(staleReads).toEqual([]);
    expect([price, imported]).toEqual([2, 5]);
    await until('/metrics to say the cache is not listening', async () => (await metric('ums_cache_listening')) === 0);
    await until('a log line of the late notices', () => listenerStates().includes('late'));
    const bypasses = await metric('ums_cache_bypasses_total');
    expect(await priceOnOther(tariff.id)).toBe(2);
    expect(await metric('ums_cache_bypasses_total')).toBeGreaterThan(bypasses);

    // No heartbeat back for long: the connection is given up and replaced (the new one frozen too, once it LISTENs).
    await until('a log line of the connection given up', () => listenerStates().includes('lost'));
    proxy.resume();
    await until('the cache to listen again', async () => (await metric('ums_cache_listening')) === 1);
    expect(listenerStates().at(-1)).toBe('listening');
    expect(logs.filter((line) => line.cacheListener === 'late').map(({ level, msg }) => ({ level, msg }))[0]).toEqual({
      level: 40,
      msg: 'Read cache: change notices are late, cache bypassed',
    });

    // Notices arrive again: a change on the first process is seen, and the cache is used again.
    expect((await change(3)).status).toBe(200);
    await until('the other process to see the next change', async () => (await priceOnOther(tariff.id)) === 3);
    await until('a read from the cache', async () => {
      const before = await metric('ums_cache_hits_total');
      await priceOnOther(tariff.id);
      return (await metric('ums_cache_hits_total')) > before;
    });
  }, 120_000);
});
