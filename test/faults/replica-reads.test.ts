import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBlock, createMeter } from '../helpers/building-factories.ts';
import { databaseEnv } from '../helpers/database-url.ts';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { call } from '../helpers/http.ts';
import { secondProcess } from '../helpers/second-process.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { at, ingest, TIMESERIES } from '../helpers/timeseries-factories.ts';

/**
 * The pass through the topology of scripts/pg-topology.sh (.ci/run): DATABASE_URL is PgBouncer in
 * transaction mode and DATABASE_REPLICA_URL a streaming standby of its PostgreSQL. These tests stop
 * the standby and pause its replay; every other file of the pass reads from it meanwhile, and must
 * not notice but for where their reads go.
 */
const topology = Boolean(process.env.DATABASE_REPLICA_URL);
const pooled = process.env.DATABASE_POOLED === 'true';
const TOPOLOGY_SCRIPT = join(import.meta.dirname, '../../scripts/pg-topology.sh');
/** Small, so that a lagging replica is bypassed soon after it stops replaying. */
const MAX_LAG_MS = 400;
const MONTH_START = '2025-03-01T00:00:00.000Z';
/** The most a test waits for an event (a loaded 2-core machine is slow, never this slow). */
const PATIENCE_MS = 60_000;

/** Polls until check() holds (every 20 ms, at most PATIENCE_MS): waits for an event, not a time. */
async function until(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = performance.now() + PATIENCE_MS;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const topologyScript = (command: string) => promisify(execFile)(TOPOLOGY_SCRIPT, [command]);

let t: TestApp;
let owner: TestUser;
let accountId: string;
let blockId: number;
/** The test database on the standby, for what the tests ask it directly. */
let standby: pg.Client;

beforeAll(async () => {
  if (!topology) return;
  // No months of readings kept: every profile is read from a database, the replica or the primary.
  t = await startTestApp({ REPLICA_MAX_LAG_MS: String(MAX_LAG_MS), KEPT_MONTHS_BYTES: '0' });
  owner = await registerUser(t.app, 'owner');
  accountId = await createOrganization(owner);
  blockId = (await createBlock(owner.client, accountId)).id;
  standby = new pg.Client({ connectionString: databaseEnv(t.databaseUrl!).DATABASE_REPLICA_URL });
  await until('the standby to have the test database', async () => {
    try {
      await standby.connect();
      return true;
    } catch {
      standby = new pg.Client({ connectionString: databaseEnv(t.databaseUrl!).DATABASE_REPLICA_URL });
      return false;
    }
  });
});
afterAll(async () => {
  if (!topology) return;
  await standby?.query('SELECT pg_wal_replay_resume()').catch(() => {});
  await standby?.end().catch(() => {});
  await t?.close();
});

/** The replica's part of /readyz. */
async function replicaState(app = t.app) {
  const res = await call(app, 'GET', '/readyz');
  expect(res.status).toBe(200);
  return res.body.data.replica as { in_use: boolean; lag_ms: number; bypassed?: string };
}

async function metric(name: string): Promise<number> {
  const res = await t.app.inject({ method: 'GET', url: '/metrics' });
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(res.body);
  if (!match) throw new Error(`${name} missing from /metrics`);
  return Number(match[1]);
}

/** Scans of the readings tables on the standby (its own statistics): they grow when it serves a read. */
async function standbyScans(): Promise<number> {
  const [row] = (
    await standby.query<{ scans: string }>(
      `SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0)::text AS scans
         FROM pg_stat_user_tables WHERE relname IN ('readings', 'readings_hourly', 'readings_daily')`,
    )
  ).rows;
  return Number(row!.scans);
}

/** A new meter of the organization, with one reading at MONTH_START. */
async function meterWithReading(import_kwh: number) {
  const meter = await createMeter(owner.client, accountId, blockId);
  await ingest(owner.client, accountId, meter.meter_sn, [{ ts: MONTH_START, import_kwh }]);
  return meter;
}

/** The meter's imported kWh at MONTH_START, read through app's energy profile of a day never asked for before. */
let periods = 0;
async function importedAtStart(meterSn: string, client = owner.client): Promise<number | undefined> {
  const end = at(MONTH_START, 24 * 60 + ++periods * 30);
  const res = await client.get(`${TIMESERIES}/energy-profile`, {
    account_id: accountId,
    meter_sn: meterSn,
    start: MONTH_START,
    end,
  });
  expect(res.status).toBe(200);
  return res.body.data[0]?.import_kwh;
}

describe.runIf(topology)('reads from a streaming replica, writes through PgBouncer', () => {
  it.runIf(pooled)('goes through PgBouncer: its pools list the test database', async () => {
    // PgBouncer's console: the database named pgbouncer on its port.
    const pgbouncer = new URL(t.databaseUrl!);
    pgbouncer.pathname = '/pgbouncer';
    const console = new pg.Client({ connectionString: pgbouncer.toString() });
    await console.connect();
    try {
      const pools = await console.query<{ database: string; pool_mode: string }>('SHOW POOLS');
      const name = new URL(t.databaseUrl!).pathname.slice(1);
      expect(pools.rows.filter((p) => p.database === name).map((p) => p.pool_mode)).toContain('transaction');
    } finally {
      await console.end();
    }
  });

  it('reads its own writes at once, from the replica once it has replayed them', async () => {
    await until('the replica to be in use', async () => (await replicaState()).in_use);
    const meter = await meterWithReading(1);
    const scansBefore = await standbyScans();
    for (let value = 2; value <= 20; value++) {
      await ingest(owner.client, accountId, meter.meter_sn, [{ ts: MONTH_START, import_kwh: value }]);
      expect(await importedAtStart(meter.meter_sn)).toBe(value);
    }
    // Once the replica has replayed the last write, the meter's reads go to it.
    await until('a read served by the replica', async () => {
      expect(await importedAtStart(meter.meter_sn)).toBe(20);
      return (await standbyScans()) > scansBefore;
    });
    expect(await metric('ums_replica_in_use')).toBe(1);
  });

  it("shows another process's write once its notice arrives, whichever server it reads from", async () => {
    const other = await secondProcess(t.databaseUrl!, owner, { REPLICA_MAX_LAG_MS: String(MAX_LAG_MS) });
    try {
      await until('the replica to be in use on the other process', async () => (await replicaState(other.app)).in_use);
      const meter = await meterWithReading(1);
      await until('the other process to see the reading', async () => {
        return (await importedAtStart(meter.meter_sn, other.client)) === 1;
      });
      for (let value = 2; value <= 6; value++) {
        await ingest(owner.client, accountId, meter.meter_sn, [{ ts: MONTH_START, import_kwh: value }]);
        await until(`the other process to see ${value}`, async () => {
          const seen = await importedAtStart(meter.meter_sn, other.client);
          expect([value - 1, value]).toContain(seen);
          return seen === value;
        });
      }
    } finally {
      await other.close();
    }
  });

  it('bypasses a replica whose replay is paused once it lags REPLICA_MAX_LAG_MS, and uses it again once it catches up', async () => {
    await until('the replica to be in use', async () => (await replicaState()).in_use);
    const meter = await meterWithReading(1);
    await standby.query('SELECT pg_wal_replay_pause()');
    try {
      // A write the service is not told of (this process reads it from the replica otherwise).
      await t.db.query('UPDATE readings SET import_kwh = 7 WHERE meter_id = $1', [meter.id]);
      await until('/readyz to say the replica lags', async () => (await replicaState()).bypassed === 'lagging');
      expect(await metric('ums_replica_in_use')).toBe(0);
      expect(await metric('ums_replica_lag_ms')).toBeGreaterThan(MAX_LAG_MS);
      // Bypassed: read from the primary, which has the write.
      expect(await importedAtStart(meter.meter_sn)).toBe(7);
    } finally {
      await standby.query('SELECT pg_wal_replay_resume()');
    }
    await until('the replica to be in use again', async () => (await replicaState()).in_use);
    expect(await importedAtStart(meter.meter_sn)).toBe(7);
  });

  it('reads from the primary while the replica is stopped, without a failed request', async () => {
    await until('the replica to be in use', async () => (await replicaState()).in_use);
    const meter = await meterWithReading(3);
    const scansBefore = await standbyScans();
    await until('the replica to serve the reading', async () => {
      expect(await importedAtStart(meter.meter_sn)).toBe(3);
      return (await standbyScans()) > scansBefore;
    });
    await standby.end();
    await topologyScript('standby-stop');
    try {
      // The reads right after the stop, before the next check sees it down: each goes to the primary.
      for (let i = 0; i < 5; i++) expect(await importedAtStart(meter.meter_sn)).toBe(3);
      await until('/readyz to say the replica is down', async () => (await replicaState()).bypassed === 'down');
      expect(await metric('ums_replica_in_use')).toBe(0);
      expect(await importedAtStart(meter.meter_sn)).toBe(3);
    } finally {
      await topologyScript('standby-start');
      standby = new pg.Client({ connectionString: databaseEnv(t.databaseUrl!).DATABASE_REPLICA_URL });
      await standby.connect();
    }
    await until('the replica to be in use again', async () => (await replicaState()).in_use);
    expect(await importedAtStart(meter.meter_sn)).toBe(3);
  });
});
