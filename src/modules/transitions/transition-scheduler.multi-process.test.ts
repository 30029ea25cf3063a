import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseEnv } from '../../../test/helpers/database-url.ts';
import { createOrganization, registerUser } from '../../../test/helpers/factories.ts';
import {
  insertBuildingBlock,
  insertMeter,
  insertTariff,
  insertTransition,
} from '../../../test/helpers/sql-fixtures.ts';
import { startTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const PROCESSES = 3;
const TRANSITIONS = 30;
const METERS_PER_TARIFF = 2;

/**
 * Starts a real server process on the same PostgreSQL database (compiled once for the run: no
 * TypeScript compiler at each start) and waits until it listens.
 */
function startServer(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [inject('compiledScripts').server], {
    env: {
      ...process.env,
      ...databaseEnv(databaseUrl),
      PORT: '0',
      TRANSITION_POLL_S: '0.2',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ums-proc-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Server listening')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

const pendingTransitions = async () =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tariff_transitions WHERE applied_at IS NULL'))[0]!.n;

let t: TestApp;
const servers: ChildProcess[] = [];
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  for (const server of servers) server.kill('SIGTERM');
  await Promise.all(
    servers.map((s) => new Promise((resolve) => (s.exitCode === null ? s.once('exit', resolve) : resolve(null)))),
  );
  await t.close();
});

describe('transition scheduler with several server processes on one PostgreSQL', () => {
  it.runIf(process.env.DATABASE_URL)('applies each due transition exactly once', async () => {
    const owner = await registerUser(t.app);
    const accountId = await createOrganization(owner);
    const block = await insertBuildingBlock(t.db, accountId);
    const pairs: [number, number][] = [];
    for (let i = 0; i < TRANSITIONS; i++) {
      const pred = await insertTariff(t.db, accountId, `Old ${i}`);
      const succ = await insertTariff(t.db, accountId, `New ${i}`);
      for (let m = 0; m < METERS_PER_TARIFF; m++) await insertMeter(t.db, accountId, block, { tariffId: pred });
      pairs.push([pred, succ]);
    }
    servers.push(...(await Promise.all(Array.from({ length: PROCESSES }, () => startServer(t.databaseUrl!)))));

    // Due as they are committed together, once every process polls: each process finds all of them due.
    const transitionIds = await t.db.transaction(async (tx) => {
      const ids: number[] = [];
      for (const [pred, succ] of pairs) ids.push(await insertTransition(tx, accountId, pred, succ, new Date(0)));
      return ids;
    });
    while ((await pendingTransitions()) > 0) await new Promise((resolve) => setTimeout(resolve, 200));

    const applications = await t.db.query<{ transition_id: number; meters_updated: number; applied_by: string }>(
      'SELECT transition_id, meters_updated, applied_by FROM tariff_transition_applications ORDER BY transition_id',
    );
    expect(applications.map((a) => a.transition_id)).toEqual(transitionIds);
    expect(applications.every((a) => a.meters_updated === METERS_PER_TARIFF)).toBe(true);
    const [{ stale }] = (await t.db.query<{ stale: number }>(
      `SELECT count(*)::int AS stale FROM meters m JOIN tariff_transitions t ON t.predecessor_id = m.tariff_id`,
    )) as [{ stale: number }];
    expect(stale).toBe(0);
  });
});
