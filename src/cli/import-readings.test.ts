import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { insertMeter, rollupsAndRaw, storedReadings, type TestMeter } from '../../test/helpers/timeseries-factories.ts';
import type { Database, Transaction } from '../db/types.ts';
import { main } from './import-readings.ts';

let t: TestApp;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  org = await organizationWithRoles(t.app);
  dir = await mkdtemp(join(tmpdir(), 'import-readings-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
async function csv(lines: string[], eol = '\n'): Promise<string> {
  const path = join(dir, `readings-${++files}.csv`);
  await writeFile(path, lines.map((line) => line + eol).join(''));
  return path;
}

function collect() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk) => {
    text += chunk;
  });
  return { stream, text: () => text };
}

/** Runs the command in-process against this file's test database. */
async function run(args: string[]) {
  const stdout = collect();
  const stderr = collect();
  const code = await main(args, {
    withDatabase: <T>(fn: (db: Database) => Promise<T>) => fn(t.db),
    stdout: stdout.stream,
    stderr: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const importFile = (file: string, batchSize = 3) =>
  run(['--account', org.accountId, '--file', file, '--batch-size', String(batchSize)]);

const HEADER = 'meter_sn,ts,import_kwh,export_kwh,kvarh';

describe('import command', () => {
  let a: TestMeter;
  let b: TestMeter;
  beforeAll(async () => {
    a = await insertMeter(t.db, org.accountId);
    b = await insertMeter(t.db, org.accountId, { interval_minutes: 15 });
  });

  it('stores every line in batches, derives power, keeps the rollups, and prints a summary', async () => {
    const file = await csv(
      [
        HEADER,
        `${a.meter_sn},2026-04-01T00:00:00Z,1.5,0.5,2`,
        `${a.meter_sn},2026-04-01T00:30:00Z,2,,`,
        `"${b.meter_sn}",2026-04-01T02:15:00+02:00,0.75,0,1`,
        '',
        `${b.meter_sn},2026-04-01T00:30:00Z,1,0.25,0`,
        `${a.meter_sn},2026-04-01T23:30:00Z,3,0,0`,
        `${a.meter_sn},2026-04-02T00:00:00Z,4,1,0`,
        `${a.meter_sn},2026-04-01T00:30:00Z,2.5,0,0`,
      ],
      '\r\n',
    );
    const result = await importFile(file);
    expect(result).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(
          `^Imported 7 readings \\(6 inserted, 1 updated\\) from ${file} in [\\d.]+ s \\(\\d+ readings/s\\)\\n$`,
        ),
      ),
      stderr: '',
    });
    expect(await storedReadings(t.db, a.id)).toEqual([
      { ts: '2026-04-01T00:00:00.000Z', import_kwh: 1.5, export_kwh: 0.5, kvarh: 2, power_kw: 3, kva: 5 },
      // The last line for a (meter, ts) wins.
      { ts: '2026-04-01T00:30:00.000Z', import_kwh: 2.5, export_kwh: 0, kvarh: 0, power_kw: 5, kva: 5 },
      { ts: '2026-04-01T23:30:00.000Z', import_kwh: 3, export_kwh: 0, kvarh: 0, power_kw: 6, kva: 6 },
      { ts: '2026-04-02T00:00:00.000Z', import_kwh: 4, export_kwh: 1, kvarh: 0, power_kw: 8, kva: 8 },
    ]);
    expect(await storedReadings(t.db, b.id)).toEqual([
      { ts: '2026-04-01T00:15:00.000Z', import_kwh: 0.75, export_kwh: 0, kvarh: 1, power_kw: 3, kva: 5 },
      { ts: '2026-04-01T00:30:00.000Z', import_kwh: 1, export_kwh: 0.25, kvarh: 0, power_kw: 4, kva: 4 },
    ]);
    for (const meter of [a, b]) {
      const rollups = await rollupsAndRaw(t.db, meter.id);
      expect(rollups.hourly).toEqual(rollups.hourlyFromRaw);
      expect(rollups.daily).toEqual(rollups.dailyFromRaw);
    }

    const again = await importFile(file, 100);
    expect(again.code).toBe(0);
    // One batch: its two lines for the same (meter, ts) make one reading.
    expect(again.stdout).toMatch(/^Imported 6 readings \(0 inserted, 6 updated\)/);
    expect((await storedReadings(t.db, a.id)).map((r) => r.import_kwh)).toEqual([1.5, 2.5, 3, 4]);
  });

  it('reads the account id in any case', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv([HEADER, `${m.meter_sn},2026-04-01T00:00:00Z,1,0,0`]);
    const upper = await run(['--account', org.accountId.toUpperCase(), '--file', file]);
    expect([upper.code, upper.stderr]).toEqual([0, '']);
    expect((await storedReadings(t.db, m.id)).map((r) => r.import_kwh)).toEqual([1]);
  });

  it('accepts the optional power_kw and kva columns in any order', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv(['ts,kva,meter_sn,power_kw,import_kwh', `2026-04-01T00:00:00Z,9,${m.meter_sn},7,1`]);
    expect((await importFile(file)).code).toBe(0);
    expect(await storedReadings(t.db, m.id)).toEqual([
      { ts: '2026-04-01T00:00:00.000Z', import_kwh: 1, export_kwh: 0, kvarh: 0, power_kw: 7, kva: 9 },
    ]);
  });

  it('stops at a bad line: earlier batches stay, its batch is not stored, and a re-run completes the import', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const line = (i: number, value: string) =>
      `${m.meter_sn},${new Date(Date.UTC(2026, 3, 1, 0, 30 * i)).toISOString()},${value},0,0`;
    const good = Array.from({ length: 8 }, (_, i) => line(i, String(i + 1)));
    // Lines 2-4 are batch one, 5-7 batch two (line 6 is bad), 8-9 batch three.
    const bad = [HEADER, ...good.slice(0, 4), line(4, '-1'), ...good.slice(5)];
    const failed = await importFile(await csv(bad));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      'Import failed: line 6: import_kwh: must be a number from 0 to 1000000, found "-1"\n' +
        'Stored before the failure: 3 readings (3 inserted, 0 updated); the batch with the failing line was not stored. ' +
        'Fix the file and run the import again: readings already stored are replaced by the same values.\n',
    );
    expect((await storedReadings(t.db, m.id)).map((r) => r.import_kwh)).toEqual([1, 2, 3]);

    const fixed = await importFile(await csv([HEADER, ...good]));
    expect(fixed.stdout).toMatch(/^Imported 8 readings \(5 inserted, 3 updated\)/);
    expect((await storedReadings(t.db, m.id)).map((r) => r.import_kwh)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('refuses a line over 1 MB by its number, without echoing it; earlier batches stay', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const line = (i: number) => `${m.meter_sn},${new Date(Date.UTC(2026, 3, 1, 0, 30 * i)).toISOString()},1,0,0`;
    const long = `${m.meter_sn},2026-04-01T05:00:00Z,${'9'.repeat(32 * 1024 * 1024)},0,0`;
    const failed = await importFile(await csv([HEADER, line(0), line(1), line(2), line(3), long, line(4)]));
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe(
      'Import failed: line 6: longer than 1 MB (1048576 bytes); a line of readings is far shorter: is this the right file?\n' +
        'Stored before the failure: 3 readings (3 inserted, 0 updated); the batch with the failing line was not stored. ' +
        'Fix the file and run the import again: readings already stored are replaced by the same values.\n',
    );
    expect(await storedReadings(t.db, m.id)).toHaveLength(3);
  });

  it('refuses an endless file without a line end (/dev/zero) after its first megabyte', async () => {
    const result = await run(['--account', org.accountId, '--file', '/dev/zero']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Import failed: line 1: longer than 1 MB (1048576 bytes); a line of readings is far shorter: is this the right file?\n',
    });
  });

  it('quotes at most the first 40 characters of a bad field', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const huge = `2${'0'.repeat(500_000)}`;
    const badTs = await importFile(await csv([HEADER, `${m.meter_sn},${huge},1,0,0`]));
    expect(badTs.stderr).toBe(
      `Import failed: line 2: ts: Invalid ISO datetime, found "2${'0'.repeat(39)}…" (500001 characters)\n`,
    );
    const badSerial = await importFile(await csv([HEADER, `${'S'.repeat(100_000)},2026-04-01T00:00:00Z,1,0,0`]));
    expect(badSerial.stderr).toBe(
      `Import failed: line 2: meter_sn: must be 1 to 64 characters, found "${'S'.repeat(40)}…" (100000 characters)\n`,
    );
    const badHeader = await importFile(await csv([`${HEADER},${'c'.repeat(1000)}`]));
    expect(badHeader.stderr).toContain(`unknown column "${'c'.repeat(40)}…" (1000 characters)`);
  });

  describe('batches written side by side', () => {
    let meters: TestMeter[];
    let file: string;
    beforeEach(async () => {
      meters = [];
      for (let k = 0; k < 3; k++) meters.push(await insertMeter(t.db, org.accountId));
      const lines = meters.flatMap((m, k) =>
        [0, 1, 2].map((i) => `${m.meter_sn},${new Date(Date.UTC(2026, 3, 1, 0, 30 * i)).toISOString()},${k + 1},0,0`),
      );
      file = await csv([HEADER, ...lines]);
    });

    interface BatchHooks {
      /** Does batch n's bulk load of readings (load does the real one). */
      loadReadings?: (batch: number, load: () => Promise<void>) => Promise<void>;
      /** Runs before batch n's first statement. */
      beforeFirstStatement?: (batch: number) => Promise<void>;
      /** Gets `start n` when batch n's transaction starts its work, `end n` once it has ended. */
      events?: string[];
    }

    /**
     * Imports a file in batches of about 4 lines (the default file: one batch per meter, as
     * batches end where a meter ends) through a database running these hooks in each batch's
     * transaction. On PostgreSQL batches run side by side; on the embedded database, one at a time.
     */
    async function importThrough(hooks: BatchHooks, path = file) {
      let transactions = 0;
      const db = new Proxy(t.db, {
        get(target, property) {
          if (property !== 'transaction') return Reflect.get(target, property, target);
          return async <T>(fn: (tx: Transaction) => Promise<T>) => {
            const batch = ++transactions;
            let statements = 0;
            const beforeStatement = async () => {
              if (statements++ === 0) await hooks.beforeFirstStatement?.(batch);
            };
            try {
              return await target.transaction((tx) => {
                hooks.events?.push(`start ${batch}`);
                return fn({
                  query: async (text, params, options) => {
                    await beforeStatement();
                    return tx.query(text, params, options);
                  },
                  exec: (script) => tx.exec(script),
                  changes: (keys) => tx.changes(keys),
                  copyBinary: async (table, columns, data) => {
                    await beforeStatement();
                    const load = () => tx.copyBinary(table, columns, data);
                    return table === 'readings' && hooks.loadReadings ? hooks.loadReadings(batch, load) : load();
                  },
                });
              });
            } finally {
              hooks.events?.push(`end ${batch}`);
            }
          };
        },
      });
      const stderr = collect();
      const code = await main(['--account', org.accountId, '--file', path, '--batch-size', '4'], {
        withDatabase: (fn) => fn(db),
        stdout: new PassThrough(),
        stderr: stderr.stream,
      });
      return { code, stderr: stderr.text() };
    }

    const failure = (stored: number) =>
      'Import failed: simulated write failure\n' +
      `Stored before the failure: ${stored} readings (${stored} inserted, 0 updated); the batch with the failing line was not stored. ` +
      'Fix the file and run the import again: readings already stored are replaced by the same values.\n';
    const stored = async () =>
      Promise.all(meters.map(async (m) => (await storedReadings(t.db, m.id)).map((r) => r.import_kwh)));
    const onPostgres = () => t.db.kind === 'postgres';
    const signal = () => {
      let fire!: () => void;
      const fired = new Promise<void>((resolve) => {
        fire = resolve;
      });
      return { fire, fired };
    };

    it('commits in file order: a failed batch takes the next one, already written, with it', async () => {
      const thirdWritten = signal();
      let thirdWrote = false;
      const result = await importThrough({
        loadReadings: async (batch, load) => {
          if (batch === 2) {
            if (onPostgres()) await thirdWritten.fired;
            throw new Error('simulated write failure');
          }
          await load();
          if (batch === 3) {
            thirdWrote = true;
            thirdWritten.fire();
          }
        },
      });
      expect(result).toEqual({ code: 1, stderr: failure(3) });
      // Batches end where a meter ends: none of the second meter's lines went with the first batch.
      expect(await stored()).toEqual([[1, 1, 1], [], []]);
      expect(thirdWrote).toBe(true);
    });

    it('reports a batch that fails before the one ahead of it has committed only once that one has', async () => {
      const thirdFailed = signal();
      const result = await importThrough({
        loadReadings: async (batch, load) => {
          if (batch === 3) {
            thirdFailed.fire();
            throw new Error('simulated write failure');
          }
          if (batch === 2 && onPostgres()) await thirdFailed.fired;
          await load();
        },
      });
      expect(result).toEqual({ code: 1, stderr: failure(6) });
      expect(await stored()).toEqual([[1, 1, 1], [2, 2, 2], []]);
    });

    it('starts a batch sharing a meter with the one being written only after that one has ended', async () => {
      // Slot by slot, every meter in each slot: consecutive batches share meters.
      const timeOrdered = [0, 1, 2].flatMap((i) =>
        meters.map((m, k) => `${m.meter_sn},${new Date(Date.UTC(2026, 3, 1, 0, 30 * i)).toISOString()},${k + 1},0,0`),
      );
      const secondStarted = signal();
      const events: string[] = [];
      const result = await importThrough(
        {
          events,
          // The first batch is slow to start: were the second to start meanwhile, it would lock
          // the shared meters first and wait for the first batch's commit, which would wait for it.
          beforeFirstStatement: async (batch) => {
            if (batch === 2) secondStarted.fire();
            if (batch === 1) await Promise.race([secondStarted.fired, new Promise((r) => setTimeout(r, 200))]);
          },
        },
        await csv([HEADER, ...timeOrdered]),
      );
      expect(result).toEqual({ code: 0, stderr: '' });
      expect(await stored()).toEqual([
        [1, 1, 1],
        [2, 2, 2],
        [3, 3, 3],
      ]);
      expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    });
  });

  it.each([
    [['meter_sn,ts'], 'line 1: missing column "import_kwh"'],
    [
      ['meter_sn,ts,import_kwh,volts'],
      'line 1: unknown column "volts" (expected meter_sn, ts, import_kwh, export_kwh, kvarh, power_kw, kva)',
    ],
    [['meter_sn,ts,import_kwh,ts'], 'line 1: column "ts" appears twice'],
    [[], 'line 1: the file is empty (a header line is required)'],
    [['', HEADER], 'line 1: the first line must be the header'],
    [[HEADER, 'M1,2026-04-01T00:00:00Z,1'], 'line 2: expected 5 fields, found 3'],
    [[HEADER, 'M1,2026-04-01 00:00:00Z,1,0,0'], 'line 2: ts: Invalid ISO datetime, found "2026-04-01 00:00:00Z"'],
    [
      [HEADER, 'M1,2026-04-01T00:00:00Z,0x10,0,0'],
      'line 2: import_kwh: must be a number from 0 to 1000000, found "0x10"',
    ],
    [[HEADER, 'M1,2026-04-01T00:00:00Z,,0,0'], 'line 2: import_kwh: missing'],
    [[HEADER, 'M1,2026-04-01T00:00:00Z,1,0,1e9'], 'line 2: kvarh: must be a number from 0 to 1000000, found "1e9"'],
    [[HEADER, ',2026-04-01T00:00:00Z,1,0,0'], 'line 2: meter_sn: must be 1 to 64 characters, found ""'],
    [[HEADER, 'NO-SUCH-METER,2026-04-01T00:00:00Z,1,0,0'], 'line 2: meter_sn: unknown meter "NO-SUCH-METER"'],
  ])('reports %j as %s, storing nothing', async (lines, message) => {
    const result = await importFile(await csv(lines as string[]));
    expect(result).toEqual({ code: 1, stdout: '', stderr: `Import failed: ${message}\n` });
  });

  it('names the meter problems of a line: foreign, not electricity, misaligned ts; the earliest line first', async () => {
    const foreign = await insertMeter(t.db, org.otherAccountId);
    const water = await insertMeter(t.db, org.accountId, { meter_type: 'WATER' });
    const m = await insertMeter(t.db, org.accountId);
    const cases = [
      [
        `${foreign.meter_sn},2026-04-01T00:00:00Z,1,0,0`,
        `meter_sn: meter "${foreign.meter_sn}" belongs to another organization`,
      ],
      [
        `${water.meter_sn},2026-04-01T00:00:00Z,1,0,0`,
        `meter_sn: meter "${water.meter_sn}" is not an electricity meter`,
      ],
      [`${m.meter_sn},2026-04-01T00:10:00Z,1,0,0`, "ts: not the start of one of the meter's 30-minute intervals"],
    ];
    for (const [line, message] of cases) {
      const file = await csv([HEADER, `${m.meter_sn},2026-04-01T00:00:00Z,1,0,0`, line!, 'broken line']);
      expect((await importFile(file, 10)).stderr).toBe(`Import failed: line 3: ${message}\n`);
    }
    expect(await storedReadings(t.db, m.id)).toEqual([]);
    expect(await storedReadings(t.db, foreign.id)).toEqual([]);
  });

  it.each([
    [['--file', 'x.csv'], '--account: Invalid input: expected string, received undefined'],
    [['--account', 'nope', '--file', 'x.csv'], '--account: Invalid UUID'],
    [
      ['--account', '6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f'],
      '--file: Invalid input: expected string, received undefined',
    ],
    [
      ['--account', '6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f', '--file', 'x', '--batch-size', '0'],
      '--batch-size: Too small: expected number to be >=1',
    ],
    [['--acount', 'x'], "Unknown option '--acount'"],
  ])('exits with 2 and the usage for the arguments %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: npm run import -- --account <uuid> --file <readings.csv>');
  });

  it('fails for an unknown account or a missing file', async () => {
    const unknown = await run(['--account', '6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f', '--file', await csv([HEADER])]);
    expect(unknown).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Import failed: account 6f1c2d7e-8a9b-4c3d-9e2f-1a2b3c4d5e6f not found\n',
    });
    const missing = await run(['--account', org.accountId, '--file', join(dir, 'absent.csv')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such file or directory');
  });

  it.skipIf(!process.env.DATABASE_URL)('runs against the database named by DATABASE_URL', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv([HEADER, `${m.meter_sn},2026-04-01T00:00:00Z,1,0,0`]);
    const previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = t.databaseUrl;
    const stdout = collect();
    try {
      const code = await main(['--account', org.accountId, '--file', file], {
        stdout: stdout.stream,
        stderr: new PassThrough(),
      });
      expect(code).toBe(0);
    } finally {
      process.env.DATABASE_URL = previous;
    }
    expect(stdout.text()).toMatch(/^Imported 1 readings \(1 inserted, 0 updated\)/);
    expect(await storedReadings(t.db, m.id)).toHaveLength(1);
  });
});

describe('import command: local times without offset, with --tz', () => {
  const importLocal = (file: string, ...options: string[]) =>
    run(['--account', org.accountId, '--file', file, ...options]);
  const stored = async (meter: TestMeter) =>
    (await storedReadings(t.db, meter.id)).map((r) => [r.ts, r.import_kwh] as const);

  it('refuses them without --tz, naming the line and suggesting --tz, and stores nothing', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv([
      HEADER,
      `${m.meter_sn},2026-11-25T06:00:00Z,1,0,0`,
      `${m.meter_sn},2026-11-25 08:30,2,0,0`,
    ]);
    expect(await importLocal(file)).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Import failed: line 3: ts: "2026-11-25 08:30" has no UTC offset: name the file\'s time zone ' +
        '(e.g. Africa/Johannesburg), or write the offset (e.g. 2026-11-25T08:30:00+02:00)\n' +
        "The file's times have no UTC offset: run the import again with the time zone they were taken in, " +
        'e.g. --tz Africa/Johannesburg.\n',
    });
    expect(await stored(m)).toEqual([]);
  });

  it('reads them in a zone without daylight saving (Africa/Johannesburg, UTC+2); times with an offset keep it', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv([
      HEADER,
      `${m.meter_sn},2026-11-25 08:00,1,0,0`,
      `${m.meter_sn},2026-11-25T08:30,2,0,0`,
      `${m.meter_sn},2026-11-25 09:00:00,3,0,0`,
      `${m.meter_sn},2026-11-25T09:30:00.000,4,0,0`,
      `${m.meter_sn},2026-11-25T00:00:00+01:00,5,0,0`,
      `${m.meter_sn},2026-12-31 23:30,6,0,0`,
    ]);
    const result = await importLocal(file, '--tz', 'Africa/Johannesburg');
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(await stored(m)).toEqual([
      ['2026-11-24T23:00:00.000Z', 5],
      ['2026-11-25T06:00:00.000Z', 1],
      ['2026-11-25T06:30:00.000Z', 2],
      ['2026-11-25T07:00:00.000Z', 3],
      ['2026-11-25T07:30:00.000Z', 4],
      ['2026-12-31T21:30:00.000Z', 6],
    ]);
  });

  it('reads them in a zone with daylight saving (Europe/Berlin) on both sides of the spring gap', async () => {
    const m = await insertMeter(t.db, org.accountId);
    // 2026-03-29: at 02:00 CET (UTC+1) the clocks go forward to 03:00 CEST (UTC+2).
    const file = await csv([
      HEADER,
      `${m.meter_sn},2026-03-29 01:00,1,0,0`,
      `${m.meter_sn},2026-03-29 01:30,2,0,0`,
      `${m.meter_sn},2026-03-29 03:00,3,0,0`,
      `${m.meter_sn},2026-03-29 03:30,4,0,0`,
      `${m.meter_sn},2026-07-01 12:00,5,0,0`,
      `${m.meter_sn},2026-10-25 01:30,6,0,0`,
      `${m.meter_sn},2026-10-25 03:00,7,0,0`,
    ]);
    const result = await importLocal(file, '--tz', 'Europe/Berlin');
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(await stored(m)).toEqual([
      ['2026-03-29T00:00:00.000Z', 1],
      ['2026-03-29T00:30:00.000Z', 2],
      ['2026-03-29T01:00:00.000Z', 3],
      ['2026-03-29T01:30:00.000Z', 4],
      ['2026-07-01T10:00:00.000Z', 5],
      ['2026-10-24T23:30:00.000Z', 6],
      ['2026-10-25T02:00:00.000Z', 7],
    ]);
  });

  it('refuses a local time that the clocks skip or show twice, naming the line', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const gap = await importLocal(await csv([HEADER, `${m.meter_sn},2026-03-29 02:30,1,0,0`]), '--tz', 'Europe/Berlin');
    expect([gap.code, gap.stderr.split('\n')[0]]).toEqual([
      1,
      'Import failed: line 2: ts: "2026-03-29 02:30" does not exist in Europe/Berlin: the clocks skip it (they go forward)',
    ]);
    const twice = await importLocal(
      await csv([HEADER, `${m.meter_sn},2026-10-25 02:30,1,0,0`]),
      '--tz',
      'Europe/Berlin',
    );
    expect([twice.code, twice.stderr.split('\n')[0]]).toEqual([
      1,
      'Import failed: line 2: ts: "2026-10-25 02:30" happens twice in Europe/Berlin (the clocks go back): ' +
        'write it with its UTC offset (+02:00 or +01:00)',
    ]);
    const noDate = await importLocal(await csv([HEADER, `${m.meter_sn},2026-02-30 02:30,1,0,0`]), '--tz', 'UTC');
    expect([noDate.code, noDate.stderr.split('\n')[0]]).toEqual([
      1,
      'Import failed: line 2: ts: "2026-02-30 02:30" is not a date and time',
    ]);
    expect(await stored(m)).toEqual([]);
  });

  it('refuses a --tz that is no time zone, before reading the file', async () => {
    const result = await importLocal(join(dir, 'none.csv'), '--tz', 'Africa/Nowhere');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--tz: not a time zone: an IANA name such as Africa\/Johannesburg\nUsage:/);
  });
});

describe('import command: a spreadsheet’s file, with the file options', () => {
  it('maps the columns and reads semicolons, decimal commas and YYYY/MM/DD dates with a time column', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv(['Date;Time;kWh;Note', '2026/11/25;08:00;1,5;x', '2026/11/25;08:30;2,25;y']);
    const result = await run([
      ...['--account', org.accountId, '--file', file, '--tz', 'Africa/Johannesburg', '--meter', m.meter_sn],
      ...['--columns', '{"ts":"date","time":"TIME","import_kwh":"kWh"}', '--date-format', 'YYYY/MM/DD'],
      ...['--delimiter', ';', '--decimal', ','],
    ]);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect((await storedReadings(t.db, m.id)).map((r) => [r.ts, r.import_kwh])).toEqual([
      ['2026-11-25T06:00:00.000Z', 1.5],
      ['2026-11-25T06:30:00.000Z', 2.25],
    ]);
    const bad = await run(['--account', org.accountId, '--file', file, '--columns', '{"watts":"W"}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^--columns: a JSON object of meter_sn, ts, time/);
  });
});
