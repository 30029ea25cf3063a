import { type ChildProcess, fork, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileOf, takeoverClaimOf } from '../../src/db/data-dir-lock.ts';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { embeddedDataDirs } from '../helpers/embedded-data-dir.ts';
import { type ImportProcess, runScript, SERVER, startServer } from './import-process.ts';

let dir: string;
let server: ImportProcess | undefined;
const dataDirs = embeddedDataDirs();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'data-dir-lock-'));
});
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  await rm(dir, { recursive: true, force: true });
  await dataDirs.remove();
});

/** The environment of a process on the embedded database under dataDir (never PostgreSQL). */
const embedded = (dataDir: string) => ({ DATA_DIR: dataDir, DATABASE_URL: undefined, SEED_DEMO: 'false' });
const ACCOUNT = '00000000-0000-4000-8000-000000000001';

/** The pid of a process that has ended. */
function goneProcessPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

async function writeLock(pglite: string, holder: Record<string, unknown>): Promise<void> {
  await mkdir(pglite, { recursive: true });
  await writeFile(
    lockFileOf(pglite),
    JSON.stringify({ owner: 'the server', since: '2026-01-01T00:00:00.000Z', token: 't', ...holder }),
  );
}

describe('the embedded database has one owner', () => {
  it('a running server holds its DATA_DIR: the import command and a second server stop at once naming it and what to do', async () => {
    const dataDir = join(dir, 'server');
    await dataDirs.copyTo(join(dataDir, 'pglite'));
    const started = startServer(embedded(dataDir));
    server = started.server;
    await started.address;
    const pid = server.child.pid!;
    const inUse = new RegExp(
      `the embedded database in ${join(dataDir, 'pglite')} is in use by process ${pid} \\(the server, since [^)]+\\)\\. ` +
        'Only one process at a time may open it: stop that process first, or, to import readings while the server runs, ' +
        'send them through the server: npm run import -- --url http://<host>:<port> --account <uuid> --file <readings.csv>, ' +
        'with an access token in the environment variable UMS_TOKEN',
    );

    const file = join(dir, 'readings.csv');
    await writeFile(file, 'meter_sn,ts,import_kwh\n');
    // Both are refused while the server holds the directory: they are started together.
    const [importer, second] = await Promise.all([
      runScript(['--account', ACCOUNT, '--file', file], embedded(dataDir)),
      runScript([], { ...embedded(dataDir), PORT: '0' }, SERVER),
    ]);
    expect(importer.exit).toEqual({ code: 1, signal: null });
    expect(importer.stderr).toMatch(new RegExp(`Import failed: ${inUse.source}`));

    expect(second.exit).toEqual({ code: 1, signal: null });
    expect(second.stderr).toMatch(inUse);

    // The server stopped, the lock is released and the import opens the database.
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    expect(existsSync(lockFileOf(join(dataDir, 'pglite')))).toBe(false);
    const after = await runScript(['--account', ACCOUNT, '--file', file], embedded(dataDir));
    expect(after.stderr).toMatch(`Import failed: account ${ACCOUNT} not found`);
  });

  it('takes over a lock whose process is gone, and releases it on close', async () => {
    const pglite = join(dir, 'stale', 'pglite');
    await dataDirs.copyTo(pglite);
    await writeLock(pglite, { pid: goneProcessPid() });
    const db = await openEmbeddedDatabase({ dataDir: pglite, owner: 'a test' });
    try {
      await db.ping();
      const holder = JSON.parse(await readFile(lockFileOf(pglite), 'utf8'));
      expect(holder).toMatchObject({ pid: process.pid, owner: 'a test' });
    } finally {
      await db.close();
    }
    expect(existsSync(lockFileOf(pglite))).toBe(false);
  });

  it('passes over the claim of a taker that died during its takeover, and leaves no claim behind', async () => {
    const pglite = join(dir, 'claimed', 'pglite');
    await dataDirs.copyTo(pglite);
    await writeLock(pglite, { pid: goneProcessPid() });
    const left = await readFile(lockFileOf(pglite), 'utf8');
    const deadClaim = takeoverClaimOf(lockFileOf(pglite), left, 1);
    await writeFile(deadClaim, JSON.stringify({ pid: goneProcessPid(), owner: 'the server', since: '', token: 'u' }));
    const db = await openEmbeddedDatabase({ dataDir: pglite, owner: 'a test' });
    try {
      expect(JSON.parse(await readFile(lockFileOf(pglite), 'utf8'))).toMatchObject({ pid: process.pid });
      expect(existsSync(deadClaim)).toBe(false);
      expect(existsSync(takeoverClaimOf(lockFileOf(pglite), left, 2))).toBe(false);
    } finally {
      await db.close();
    }
  });

  it('takes over a lock whose pid now belongs to another process (the pid was reused)', async () => {
    const pglite = join(dir, 'reused', 'pglite');
    await dataDirs.copyTo(pglite);
    await writeLock(pglite, { pid: process.ppid, start: 'another-boot/1' });
    const db = await openEmbeddedDatabase({ dataDir: pglite });
    await db.close();
    expect(existsSync(lockFileOf(pglite))).toBe(false);
  });

  it('refuses a second opening of a data directory in the same process', async () => {
    const pglite = join(dir, 'twice', 'pglite');
    await dataDirs.copyTo(pglite);
    const db = await openEmbeddedDatabase({ dataDir: pglite, owner: 'a test' });
    try {
      await expect(openEmbeddedDatabase({ dataDir: pglite })).rejects.toThrow(
        `the embedded database in ${pglite} is in use by process ${process.pid} (a test, since`,
      );
    } finally {
      await db.close();
    }
  });

  it('four processes taking over a stale lock at once: exactly one holds it, in each of 30 rounds', async () => {
    const contenders = await Promise.all(Array.from({ length: 4 }, startContender));
    try {
      const rounds: string[][] = [];
      for (let round = 1; round <= 30; round++) {
        const dataDir = join(dir, 'race', String(round), 'pglite');
        await writeLock(dataDir, { pid: goneProcessPid() });
        const answers = await Promise.all(contenders.map((contender) => ask(contender, { take: dataDir })));
        rounds.push(answers.sort());
        await Promise.all(contenders.map((contender) => ask(contender, { release: true })));
        expect(existsSync(lockFileOf(dataDir))).toBe(false);
      }
      expect(rounds).toEqual(Array.from({ length: 30 }, () => ['held', 'in use', 'in use', 'in use']));
    } finally {
      for (const contender of contenders) contender.kill('SIGKILL');
    }
  });
});

/** A process of test/faults/lock-contender.ts, once it is ready for orders. */
async function startContender(): Promise<ChildProcess> {
  const child = fork(join(import.meta.dirname, 'lock-contender.ts'), { execArgv: ['--import', 'tsx'] });
  const [ready] = await once(child, 'message');
  expect(ready).toBe('ready');
  return child;
}

/** Sends an order to a contender and waits for its answer. */
async function ask(contender: ChildProcess, order: { take?: string; release?: boolean }): Promise<string> {
  const answer = once(contender, 'message');
  contender.send(order);
  return (await answer)[0] as string;
}
