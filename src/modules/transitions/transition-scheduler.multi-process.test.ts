import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** Starts a real server process on the same PostgreSQL database and waits until it listens. */
function startServer(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: '0',
      TRANSITION_POLL_S: '0.2',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      DATA_DIR: mkdtempSync(join(tmpdir(), 'ums-proc-')),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server did not start')), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Server listening')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

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
  it.runIf(process.env.DATABASE_URL)(
    'applies each due transition exactly once',
    async () => {
      const owner = await registerUser(t.app);
      const accountId = await createOrganization(owner);
      const block = await insertBuildingBlock(t.db, accountId);
      const transitionIds: number[] = [];
      for (let i = 0; i < TRANSITIONS; i++) {
        const pred = await insertTariff(t.db, accountId, `Old ${i}`);
        const succ = await insertTariff(t.db, accountId, `New ${i}`);
        for (let m = 0; m < METERS_PER_TARIFF; m++) await insertMeter(t.db, accountId, block, { tariffId: pred });
        transitionIds.push(await insertTransition(t.db, accountId, pred, succ, new Date(Date.now() + 3000)));
      }
      servers.push(...(await Promise.all(Array.from({ length: PROCESSES }, () => startServer(t.databaseUrl!)))));

      let pending = TRANSITIONS;
      for (let i = 0; i < 100 && pending > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const [row] = await t.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM tariff_transitions WHERE applied_at IS NULL',
        );
        pending = row!.n;
      }
      expect(pending).toBe(0);

      const applications = await t.db.query<{ transition_id: number; meters_updated: number; applied_by: string }>(
        'SELECT transition_id, meters_updated, applied_by FROM tariff_transition_applications ORDER BY transition_id',
      );
      expect(applications.map((a) => a.transition_id)).toEqual(transitionIds);
      expect(applications.every((a) => a.meters_updated === METERS_PER_TARIFF)).toBe(true);
      const [{ stale }] = (await t.db.query<{ stale: number }>(
        `SELECT count(*)::int AS stale FROM meters m JOIN tariff_transitions t ON t.predecessor_id = m.tariff_id`,
      )) as [{ stale: number }];
      expect(stale).toBe(0);
    },
    90_000,
  );
});
