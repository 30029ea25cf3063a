import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { insertMeter, rollupsAndRaw, type TestMeter } from '../helpers/timeseries-factories.ts';
import { IMPORTER_NAME, type ImportProcess, runImport, startImport } from './import-process.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const METERS = 20;
const SLOTS = 500;
const BATCH_SIZE = 500;
const BATCHES_BEFORE_KILL = 3;
const TOTAL = METERS * SLOTS;
const START = Date.UTC(2026, 0, 1);

let t: TestApp;
let dir: string;
let accountId: string;
let meters: TestMeter[];
let lines: string[];
let file: string;
let importer: ImportProcess | undefined;

/** Line i of the file (after the header): slot by slot, every meter in each slot, values derived from i. */
function line(i: number): string {
  const meter = meters[i % METERS]!;
  const ts = new Date(START + Math.floor(i / METERS) * 30 * 60_000).toISOString();
  const importKwh = (i % 1000) / 8;
  return [meter.meter_sn, ts, importKwh, (i % 7) / 4, (i % 11) / 2, importKwh * 2, importKwh * 2 + 1].join(',');
}

beforeAll(async () => {
  if (!onPostgres) return;
  t = await startTestApp();
  accountId = (await registerUser(t.app, 'importer')).personalAccountId;
  meters = [];
  for (let m = 0; m < METERS; m++) meters.push(await insertMeter(t.db, accountId));
  lines = Array.from({ length: TOTAL }, (_, i) => line(i));
  dir = await mkdtemp(join(tmpdir(), 'import-kill-'));
  file = join(dir, 'readings.csv');
  await writeFile(file, `meter_sn,ts,import_kwh,export_kwh,kvarh,power_kw,kva\n${lines.join('\n')}\n`);
});

afterAll(async () => {
  if (!onPostgres) return;
  importer?.child.kill('SIGKILL');
  await importer?.exited;
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const importArgs = () => ['--account', accountId, '--file', file, '--batch-size', String(BATCH_SIZE)];

async function storedCount(): Promise<number> {
  const [row] = await t.db.query<{ count: number }>('SELECT count(*)::int AS count FROM readings');
  return row!.count;
}

/** Polls until check returns a value other than undefined; fails after timeoutMs. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The importer's session, if it is inside a batch: readings written (uncommitted) and waiting on a lock. */
async function importerBlockedInBatch(): Promise<number | undefined> {
  const [row] = await t.db.query<{ pid: number }>(
    `SELECT a.pid FROM pg_stat_activity a
     WHERE a.datname = current_database() AND a.application_name = $1 AND a.wait_event_type = 'Lock'
       AND EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND l.granted
                   AND l.relation = 'readings'::regclass AND l.mode = 'RowExclusiveLock')`,
    [IMPORTER_NAME],
  );
  return row?.pid;
}

/**
 * The importer's sessions inside a transaction (behind a pooler, its server connection outlives the
 * client and keeps its name, idle).
 */
async function importerTransactions(): Promise<number> {
  const [row] = await t.db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM pg_stat_activity
     WHERE datname = current_database() AND application_name = $1 AND xact_start IS NOT NULL`,
    [IMPORTER_NAME],
  );
  return row!.count;
}

/** Sessions of this database inside a transaction, and advisory locks (the meter write locks) still held. */
async function openTransactionsAndLocks() {
  const [row] = await t.db.query<{ transactions: number; advisory_locks: number }>(
    `SELECT
       (SELECT count(*)::int FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL) AS transactions,
       (SELECT count(*)::int FROM pg_locks
        WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database()))
         AS advisory_locks`,
  );
  return row;
}

/** The stored readings as file lines (same formatting), and how they differ from the first n lines of the file. */
async function compareWithFirstLines(n: number) {
  const rows = await t.db.query<Record<string, string | number | Date>>(
    `SELECT m.meter_sn, r.ts, r.import_kwh, r.export_kwh, r.kvarh, r.power_kw, r.kva
     FROM readings r JOIN meters m ON m.id = r.meter_id`,
  );
  const stored = new Set(
    rows.map((r) =>
      [r.meter_sn, (r.ts as Date).toISOString(), r.import_kwh, r.export_kwh, r.kvarh, r.power_kw, r.kva].join(','),
    ),
  );
  const expected = new Set(lines.slice(0, n));
  return {
    stored: rows.length,
    missing: [...expected].filter((l) => !stored.has(l)).slice(0, 5),
    unexpected: [...stored].filter((l) => !expected.has(l)).slice(0, 5),
  };
}

async function expectRollupsEqualRaw(): Promise<void> {
  for (const meter of meters) {
    const rollups = await rollupsAndRaw(t.db, meter.id);
    expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
    expect(rollups.daily).toEqual(rollups.dailyFromRaw);
  }
}

describe('readings import killed with SIGKILL', () => {
  it.runIf(onPostgres)(
    'keeps only whole batches, leaves nothing open, and a re-run completes the import exactly once',
    async () => {
      // Holding the hourly rollups table stops the importer inside a batch, after it wrote the batch's
      // readings and before its rollups: the kill then lands in an open transaction.
      const blocker = new pg.Client({ connectionString: t.databaseUrl });
      await blocker.connect();
      let committedAtKill: number;
      try {
        await blocker.query('BEGIN; LOCK TABLE readings_hourly IN EXCLUSIVE MODE');
        importer = startImport(importArgs(), t.databaseUrl!, dir);
        await waitFor('the importer to wait inside its first batch, its readings written', importerBlockedInBatch);
        for (let batch = 1; batch <= BATCHES_BEFORE_KILL; batch++) {
          // Released until the batch commits: a batch can wait for the table twice (its bulk load of
          // rollups, rolled back to a savepoint, gives the lock up before its upsert asks again).
          // One message: the lock is asked for again before the released batch can commit, so it is
          // granted right after that commit, and the next batch waits.
          await waitFor(`batch ${batch} to commit`, async () => {
            if ((await storedCount()) === batch * BATCH_SIZE) return true;
            if (await importerBlockedInBatch()) {
              await blocker.query('COMMIT; BEGIN; LOCK TABLE readings_hourly IN EXCLUSIVE MODE');
            }
            return undefined;
          });
          await waitFor(`the importer to wait inside batch ${batch + 1}`, importerBlockedInBatch);
        }
        committedAtKill = await storedCount();
        importer.child.kill('SIGKILL');
        expect(await importer.exited).toEqual({ code: null, signal: 'SIGKILL' });
      } finally {
        await blocker.query('ROLLBACK');
        await blocker.end();
      }
      // The server (or the pooler) notices the lost client once its statement ends, and rolls the batch back.
      await waitFor('the importer transaction to end', async () =>
        (await importerTransactions()) === 0 ? true : undefined,
      );

      expect(committedAtKill).toBe(BATCHES_BEFORE_KILL * BATCH_SIZE);
      expect(await storedCount()).toBe(committedAtKill);
      expect(await compareWithFirstLines(committedAtKill)).toEqual({
        stored: committedAtKill,
        missing: [],
        unexpected: [],
      });
      expect(await openTransactionsAndLocks()).toEqual({ transactions: 0, advisory_locks: 0 });
      await expectRollupsEqualRaw();

      const rerun = await runImport(importArgs(), t.databaseUrl!, dir);
      expect(rerun.exit).toEqual({ code: 0, signal: null });
      expect(rerun.stdout).toMatch(
        new RegExp(`^Imported ${TOTAL} readings \\(${TOTAL - committedAtKill} inserted, ${committedAtKill} updated\\)`),
      );
      expect(await compareWithFirstLines(TOTAL)).toEqual({ stored: TOTAL, missing: [], unexpected: [] });
      await expectRollupsEqualRaw();

      const third = await runImport(importArgs(), t.databaseUrl!, dir);
      expect(third.exit).toEqual({ code: 0, signal: null });
      expect(third.stdout).toMatch(new RegExp(`^Imported ${TOTAL} readings \\(0 inserted, ${TOTAL} updated\\)`));
      expect(await storedCount()).toBe(TOTAL);
    },
    60_000,
  );
});
