import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/import-readings.ts';
import { organizationWithRoles } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { insertMeter, type TestMeter, TIMESERIES } from '../helpers/timeseries-factories.ts';
import { runScript } from './import-process.ts';

let t: TestApp;
let address: string;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  org = await organizationWithRoles(t.app);
  dir = await mkdtemp(join(tmpdir(), 'import-through-server-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const HEADER = 'meter_sn,ts,import_kwh,export_kwh,kvarh';
const START = Date.UTC(2026, 3, 1);
const slot = (i: number) => new Date(START + i * 30 * 60_000).toISOString();

let files = 0;
async function csv(lines: string[]): Promise<string> {
  const path = join(dir, `readings-${++files}.csv`);
  await writeFile(path, `${lines.join('\n')}\n`);
  return path;
}

/** A meter's readings as the API gives them: one 30-minute bucket per reading. */
async function readingsThroughApi(meter: TestMeter) {
  const res = await org.owner.client.get(`${TIMESERIES}/energy-profile`, {
    account_id: org.accountId,
    meter_sn: meter.meter_sn,
    start: slot(0),
    end: slot(48),
    bucket_minutes: 30,
  });
  expect(res.status).toBe(200);
  return (res.body.data as { ts: string; import_kwh: number; export_kwh: number; kvarh: number }[]).map(
    ({ ts, import_kwh, export_kwh, kvarh }) => ({ ts, import_kwh, export_kwh, kvarh }),
  );
}

/** The import command in this process, sending to the listening server with UMS_TOKEN = token. */
async function importThroughServer(args: string[], token: string | undefined) {
  let stdout = '';
  let stderr = '';
  const out = new PassThrough().on('data', (chunk) => {
    stdout += chunk;
  });
  const err = new PassThrough().on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await main(['--url', address, '--account', org.accountId, ...args], {
    env: { UMS_TOKEN: token },
    withDatabase: () => Promise.reject(new Error('the database must not be opened')),
    stdout: out,
    stderr: err,
  });
  return { code, stdout, stderr };
}

/** The import command as its own process, on an embedded DATA_DIR it must not open. */
function importProcess(args: string[], env: Record<string, string | undefined>) {
  return runScript(args, { DATABASE_URL: undefined, DATA_DIR: join(dir, 'unused-data'), UMS_TOKEN: undefined, ...env });
}

describe('the import command through a running server (--url, UMS_TOKEN)', () => {
  // The first four start the command as a process of its own each: they run together.
  it.concurrent('sends the file in batches to the readings endpoint: the server has the readings at once, with the same summary', async () => {
    const a = await insertMeter(t.db, org.accountId);
    const b = await insertMeter(t.db, org.accountId);
    const file = await csv([
      HEADER,
      ...[0, 1, 2].map((i) => `${a.meter_sn},${slot(i)},${i + 1},0.5,0`),
      ...[0, 1, 2].map((i) => `${b.meter_sn},${slot(i)},${i + 10},0,1`),
      `${a.meter_sn},${slot(3)},4,0,0`,
      // The last line for a (meter, ts) wins: in the third batch, it updates the reading of the first.
      `${a.meter_sn},${slot(1)},2.5,0,0`,
    ]);
    const args = ['--url', address, '--account', org.accountId, '--file', file, '--batch-size', '4'];
    const run = await importProcess(args, { UMS_TOKEN: org.owner.token });
    expect(run.exit).toEqual({ code: 0, signal: null });
    expect(run.stdout).toMatch(
      new RegExp(
        `^Imported 8 readings \\(7 inserted, 1 updated\\) from ${file} in [\\d.]+ s \\(\\d+ readings/s\\)\\n$`,
      ),
    );
    expect(run.stdout + run.stderr).not.toContain(org.owner.token);
    expect(existsSync(join(dir, 'unused-data'))).toBe(false);

    expect(await readingsThroughApi(a)).toEqual([
      { ts: slot(0), import_kwh: 1, export_kwh: 0.5, kvarh: 0 },
      { ts: slot(1), import_kwh: 2.5, export_kwh: 0, kvarh: 0 },
      { ts: slot(2), import_kwh: 3, export_kwh: 0.5, kvarh: 0 },
      { ts: slot(3), import_kwh: 4, export_kwh: 0, kvarh: 0 },
    ]);
    expect(await readingsThroughApi(b)).toEqual(
      [0, 1, 2].map((i) => ({ ts: slot(i), import_kwh: i + 10, export_kwh: 0, kvarh: 1 })),
    );

    const again = await importThroughServer(['--file', file, '--batch-size', '4'], org.owner.token);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^Imported 8 readings \(0 inserted, 8 updated\)/);
  });

  it.concurrent("reports a bad token with the server's status and message, exits non-zero and stores nothing", async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv([HEADER, `${m.meter_sn},${slot(0)},1,0,0`]);
    const run = await importProcess(['--url', address, '--account', org.accountId, '--file', file], {
      UMS_TOKEN: 'not-a-token',
    });
    expect(run.exit).toEqual({ code: 1, signal: null });
    expect(run.stderr).toBe(
      `Import failed: line 2 (meter ${m.meter_sn}): the server answered 401 (Authentication required): ` +
        'Invalid bearer token\n',
    );
    expect(await readingsThroughApi(m)).toEqual([]);
  });

  it.concurrent('without UMS_TOKEN, stops before sending anything with a clear error', async () => {
    const file = await csv([HEADER]);
    const run = await importProcess(['--url', address, '--account', org.accountId, '--file', file], {});
    expect(run.exit).toEqual({ code: 2, signal: null });
    expect(run.stderr).toBe(
      'UMS_TOKEN is not set: with --url, the import sends the file to the server with an access token read from the ' +
        'environment variable UMS_TOKEN (log in through POST /api/v1/auth/login, then export UMS_TOKEN=<access_token>).\n',
    );
  });

  it.concurrent('--help explains both ways, with examples', async () => {
    const run = await importProcess(['--help'], {});
    expect(run.exit).toEqual({ code: 0, signal: null });
    expect(run.stderr).toBe('');
    for (const text of [
      'npm run import -- --account <uuid> --file <readings.csv>',
      'npm run import -- --url <server address> --account <uuid> --file <readings.csv>',
      'Directly into the database',
      'Through a running server, with --url',
      'environment variable UMS_TOKEN',
      'export UMS_TOKEN=',
      'npm run import -- --url http://127.0.0.1:3000 --account',
      'run the fixed file again to complete it',
    ]) {
      expect(run.stdout).toContain(text);
    }
  });

  it('stops at a bad line: the batches before it are stored and said so, and a re-run completes the import', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const line = (i: number, value: string) => `${m.meter_sn},${slot(i)},${value},0,0`;
    const good = Array.from({ length: 8 }, (_, i) => line(i, String(i + 1)));
    // Lines 2-4 are batch one, 5-7 batch two (line 6 is bad), 8-9 batch three.
    const failed = await importThroughServer(
      ['--file', await csv([HEADER, ...good.slice(0, 4), line(4, '-1'), ...good.slice(5)]), '--batch-size', '3'],
      org.owner.token,
    );
    expect(failed).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Import failed: line 6: import_kwh: must be a number from 0 to 1000000, found "-1"\n' +
        'Stored before the failure: 3 readings (3 inserted, 0 updated); the batch with the failing line was not stored. ' +
        'Fix the file and run the import again: readings already stored are replaced by the same values.\n',
    });
    expect((await readingsThroughApi(m)).map((r) => r.import_kwh)).toEqual([1, 2, 3]);

    const fixed = await importThroughServer(
      ['--file', await csv([HEADER, ...good]), '--batch-size', '3'],
      org.owner.token,
    );
    expect(fixed.stdout).toMatch(/^Imported 8 readings \(5 inserted, 3 updated\)/);
    expect((await readingsThroughApi(m)).map((r) => r.import_kwh)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('names the line of a reading the server refuses; the requests before it stay stored', async () => {
    const a = await insertMeter(t.db, org.accountId);
    const b = await insertMeter(t.db, org.accountId);
    const file = await csv([
      HEADER,
      `${a.meter_sn},${slot(0)},1,0,0`,
      `${b.meter_sn},${slot(0)},1,0,0`,
      `${b.meter_sn},2026-04-01T00:10:00Z,1,0,0`,
      `${a.meter_sn},${slot(1)},1,0,0`,
    ]);
    const result = await importThroughServer(['--file', file], org.owner.token);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "Import failed: line 4: ts: Not the start of one of the meter's 30-minute intervals " +
        '(the server answered 400 (Invalid request body))\n' +
        'Stored before the failure: 2 readings (2 inserted, 0 updated); the failed request was not stored. ' +
        'Fix the file and run the import again: readings already stored are replaced by the same values.\n',
    });
    expect(await readingsThroughApi(a)).toHaveLength(2);
    expect(await readingsThroughApi(b)).toEqual([]);
  });

  it("names the first line of a meter the server does not know, with the server's answer", async () => {
    const result = await importThroughServer(
      ['--file', await csv([HEADER, `NO-SUCH-METER,${slot(0)},1,0,0`])],
      org.owner.token,
    );
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Import failed: line 2 (meter NO-SUCH-METER): the server answered 404 (Not found): Meter NO-SUCH-METER not found\n',
    });
  });

  it('a member (read-only) is refused with 403, and a server that does not answer is named', async () => {
    const m = await insertMeter(t.db, org.accountId);
    const file = await csv([HEADER, `${m.meter_sn},${slot(0)},1,0,0`]);
    const member = await importThroughServer(['--file', file], org.member.token);
    expect(member.code).toBe(1);
    expect(member.stderr).toMatch(
      new RegExp(`^Import failed: line 2 \\(meter ${m.meter_sn}\\): the server answered 403 \\(Forbidden\\): `),
    );

    let stderr = '';
    const code = await main(['--url', 'http://127.0.0.1:1', '--account', org.accountId, '--file', file], {
      env: { UMS_TOKEN: org.owner.token },
      stdout: new PassThrough(),
      stderr: new PassThrough().on('data', (chunk) => {
        stderr += chunk;
      }),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(
      new RegExp(`^Import failed: line 2 \\(meter ${m.meter_sn}\\): no answer from the server at http://127.0.0.1:1: `),
    );
  });
});
