import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/import-readings.ts';
import { organizationWithRoles } from '../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { insertMeter, storedReadings, type TestMeter, TIMESERIES } from '../../test/helpers/timeseries-factories.ts';
import { failureReport, READINGS_PATH, successReport, uploadReadings } from '../src/upload/upload-readings.ts';

let t: TestApp;
let address: string;
let org: Awaited<ReturnType<typeof organizationWithRoles>>;
let dir: string;

beforeAll(async () => {
  t = await startTestApp();
  address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  org = await organizationWithRoles(t.app);
  dir = await mkdtemp(join(tmpdir(), 'console-upload-'));
});
afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const HEADER = 'meter_sn,ts,import_kwh,export_kwh,kvarh';
const START = Date.UTC(2026, 3, 1);
const slot = (i: number) => new Date(START + i * 30 * 60_000).toISOString();

/** The import command sending a file to the server: its report (stderr lines) or its summary. */
async function importCommand(text: string, batchSize: number, token = org.owner.token, options: string[] = []) {
  const file = join(dir, `readings-${Math.random().toString(36).slice(2)}.csv`);
  await writeFile(file, text);
  let stdout = '';
  let stderr = '';
  const args = ['--url', address, '--account', org.accountId, '--file', file, '--batch-size', String(batchSize)];
  await main([...args, ...options], {
    env: { UMS_TOKEN: token },
    withDatabase: () => Promise.reject(new Error('the database must not be opened')),
    stdout: new PassThrough().on('data', (chunk) => {
      stdout += chunk;
    }),
    stderr: new PassThrough().on('data', (chunk) => {
      stderr += chunk;
    }),
  });
  return { stdout, stderr: stderr.split('\n').filter(Boolean) };
}

/** The console's upload of the same text: its report, and the progress it showed. */
async function consoleUpload(text: string, batchSize: number, token = org.owner.token, timeZone?: string) {
  const progress: number[] = [];
  const post = (body: string) =>
    fetch(`${address}${READINGS_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    });
  try {
    const summary = await uploadReadings({
      accountId: org.accountId,
      file: new Blob([text]),
      batchSize,
      timeZone,
      post,
      onProgress: ({ bytes, total }) => progress.push(bytes / total),
    });
    return { report: [successReport(summary, 'readings.csv')], progress };
  } catch (error) {
    return { report: failureReport(error), progress };
  }
}

describe('readings upload from the console', () => {
  it('sends the file in batches, one request per meter, with progress up to the whole file', async () => {
    const a = await insertMeter(t.db, org.accountId);
    const b = await insertMeter(t.db, org.accountId);
    const lines = [
      HEADER,
      ...[0, 1, 2].map((i) => `${a.meter_sn},${slot(i)},${i + 1},0.5,0`),
      ...[0, 1, 2].map((i) => `${b.meter_sn},${slot(i)},${i + 10},0,1`),
      `${a.meter_sn},${slot(1)},2.5,0,0`,
    ];
    const { report, progress } = await consoleUpload(`${lines.join('\r\n')}\r\n`, 4);
    expect(report).toEqual(['Imported 7 readings (6 inserted, 1 updated) from readings.csv']);
    expect(progress.at(-1)).toBe(1);
    expect(progress.length).toBeGreaterThan(2);
    const res = await org.owner.client.get(`${TIMESERIES}/energy-sum`, {
      account_id: org.accountId,
      meter_sn: a.meter_sn,
      start: slot(0),
      end: slot(3),
    });
    expect(res.body.data).toMatchObject({ import_kwh: 6.5, readings: 3 });
  });

  describe('fails with the words of the import command', () => {
    const cases: [string, (meters: string[]) => string[], number][] = [
      ['an empty file', () => [], 10],
      ['a header without a required column', () => ['meter_sn,import_kwh', 'X,1'], 10],
      [
        'a bad line after stored batches',
        ([m]) => [HEADER, ...[0, 1, 2, 3].map((i) => `${m},${slot(i)},${i},0,0`), `${m},${slot(4)},-1,0,0`],
        3,
      ],
      [
        'a reading the server refuses, after a stored request',
        ([a, b]) => [HEADER, `${a},${slot(0)},1,0,0`, `${b},${slot(0)},1,0,0`, `${b},2026-04-01T00:10:00Z,1,0,0`],
        10,
      ],
      ['a meter the server does not know', () => [HEADER, `NO-SUCH-METER,${slot(0)},1,0,0`], 10],
      ['a line with too few fields', ([m]) => [HEADER, `${m},${slot(0)},1`], 10],
    ];
    for (const [name, lines, batchSize] of cases) {
      it(name, async () => {
        const meters = [
          (await insertMeter(t.db, org.accountId)).meter_sn,
          (await insertMeter(t.db, org.accountId)).meter_sn,
        ];
        const text = lines(meters)
          .map((line) => `${line}\n`)
          .join('');
        const command = await importCommand(text, batchSize);
        // The same file again through the console: it stores what the command stored (now updates).
        const upload = await consoleUpload(text, batchSize);
        expect(command.stderr.length).toBeGreaterThan(0);
        expect(upload.report.map((line) => line.replace(/\(\d+ inserted, \d+ updated\)/, ''))).toEqual(
          command.stderr.map((line) => line.replace(/\(\d+ inserted, \d+ updated\)/, '')),
        );
      });
    }

    it('a member (read-only) is refused', async () => {
      const m = (await insertMeter(t.db, org.accountId)).meter_sn;
      const text = `${HEADER}\n${m},${slot(0)},1,0,0\n`;
      const command = await importCommand(text, 10, org.member.token);
      expect((await consoleUpload(text, 10, org.member.token)).report).toEqual(command.stderr);
    });
  });

  describe('local times without offset', () => {
    const localFile = (meter: string) =>
      [HEADER, `${meter},2026-04-01 08:00,1,0,0`, `${meter},2026-04-01T08:30,2,0,0`, `${meter},${slot(0)},3,0,0`]
        .map((line) => `${line}\n`)
        .join('');
    const stored = async (meter: TestMeter) => (await storedReadings(t.db, meter.id)).map((r) => [r.ts, r.import_kwh]);

    it('reads them in the chosen time zone, as the command with --tz does', async () => {
      const byConsole = await insertMeter(t.db, org.accountId);
      const byCommand = await insertMeter(t.db, org.accountId);
      const upload = await consoleUpload(localFile(byConsole.meter_sn), 10, org.owner.token, 'Africa/Johannesburg');
      expect(upload.report).toEqual(['Imported 3 readings (3 inserted, 0 updated) from readings.csv']);
      const command = await importCommand(localFile(byCommand.meter_sn), 10, org.owner.token, [
        '--tz',
        'Africa/Johannesburg',
      ]);
      expect(command.stderr).toEqual([]);
      const expected = [
        ['2026-04-01T00:00:00.000Z', 3],
        ['2026-04-01T06:00:00.000Z', 1],
        ['2026-04-01T06:30:00.000Z', 2],
      ];
      expect(await stored(byConsole)).toEqual(expected);
      expect(await stored(byCommand)).toEqual(expected);
    });

    it('refuses them without a time zone, and says to choose one', async () => {
      const meter = await insertMeter(t.db, org.accountId);
      const upload = await consoleUpload(localFile(meter.meter_sn), 10);
      expect(upload.report).toEqual([
        'Import failed: line 2: ts: "2026-04-01 08:00" has no UTC offset: name the file\'s time zone ' +
          '(e.g. Africa/Johannesburg), or write the offset (e.g. 2026-04-01T08:00:00+02:00)',
        "The file's times have no UTC offset: choose the time zone they were taken in, and upload it again.",
      ]);
      expect(await stored(meter)).toEqual([]);
    });
  });
});
