import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReplicaRouting, walPosition } from './replica.ts';
import type { Executor } from './types.ts';

const MAX_LAG_MS = 1000;
/** The checks' period at MAX_LAG_MS. */
const CHECK_MS = 250;

interface FakeServer {
  lsn: string | null;
  failure: Error | undefined;
  /** While set, the server answers its WAL position only once this settles. */
  positionHeld: Promise<void> | undefined;
  executor: Executor;
}

/** A server whose WAL position the test sets; every other query answers with its name. */
function fakeServer(name: string): FakeServer {
  const server: FakeServer = {
    lsn: '0/100',
    failure: undefined,
    positionHeld: undefined,
    executor: {
      async query<T>(text: string) {
        if (server.failure) throw server.failure;
        if (/pg_current_wal_lsn|pg_last_wal_replay_lsn/.test(text)) {
          await server.positionHeld;
          return [{ lsn: server.lsn }] as T[];
        }
        return [{ from: name }] as T[];
      },
      async exec() {},
    },
  };
  return server;
}

/** Holds the primary's answers to the checks' position query until the returned function is called. */
function holdPrimaryPosition(): () => void {
  let answer = () => {};
  primary.positionHeld = new Promise((resolve) => {
    answer = resolve;
  });
  return () => {
    primary.positionHeld = undefined;
    answer();
  };
}

const readFrom = async (executor: Executor) => (await executor.query<{ from: string }>('SELECT 1'))[0]!.from;

let primary: FakeServer;
let replica: FakeServer;
let routing: ReturnType<typeof createReplicaRouting>;
beforeEach(async () => {
  vi.useFakeTimers();
  primary = fakeServer('primary');
  replica = fakeServer('replica');
  routing = createReplicaRouting(primary.executor, replica.executor, { maxLagMs: MAX_LAG_MS, now: () => Date.now() });
  await vi.advanceTimersByTimeAsync(0);
});
afterEach(() => {
  routing.stop();
  vi.useRealTimers();
});

it('orders WAL positions as PostgreSQL does', () => {
  expect(walPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
  expect(walPosition('1/0') > walPosition('0/FFFFFFFF')).toBe(true);
});

describe('reads between a primary and its replica', () => {
  it('go to the replica once it has answered a check and replayed what the primary has', async () => {
    expect(routing.state()).toEqual({ inUse: true, lagMs: 0 });
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('replica');
  });

  it('of a key changed go to the primary until the replica has replayed a position taken after the change', async () => {
    primary.lsn = '0/200';
    routing.changed(['meter-readings:1']);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('primary');
    expect(await readFrom(routing.reads(['meter-readings:2']))).toBe('replica');
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    // The check took the primary's position 0/200; the replica is still at 0/100.
    expect(await readFrom(routing.reads(['meter-readings:2', 'meter-readings:1']))).toBe('primary');
    replica.lsn = '0/200';
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('replica');
  });

  it("of a key changed go to the primary while a check is still taking the primary's position", async () => {
    primary.lsn = '0/200';
    routing.changed(['meter-readings:1']);
    const answerPosition = holdPrimaryPosition();
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('primary');
    answerPosition();
    await vi.advanceTimersByTimeAsync(0);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('primary');
    replica.lsn = '0/200';
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('replica');
  });

  it("of a key changed while the primary's position is read go to the primary until the next check's position is replayed", async () => {
    primary.lsn = '0/200';
    const answerPosition = holdPrimaryPosition();
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    routing.changed(['meter-readings:1']);
    answerPosition();
    replica.lsn = '0/200';
    await vi.advanceTimersByTimeAsync(0);
    // The replica has replayed 0/200, but the change may have committed after that position was taken.
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('primary');
    primary.lsn = '0/300';
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('primary');
    replica.lsn = '0/300';
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(await readFrom(routing.reads(['meter-readings:1']))).toBe('replica');
  });

  it('all go to the primary once the replica lags more than maxLagMs, and to the replica again once it catches up', async () => {
    primary.lsn = '0/300';
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(routing.state().inUse).toBe(true);
    await vi.advanceTimersByTimeAsync(MAX_LAG_MS + CHECK_MS);
    expect(routing.state()).toEqual({ inUse: false, lagMs: MAX_LAG_MS + CHECK_MS, bypassed: 'lagging' });
    expect(await readFrom(routing.reads([]))).toBe('primary');
    replica.lsn = '0/300';
    await vi.advanceTimersByTimeAsync(CHECK_MS);
    expect(routing.state()).toEqual({ inUse: true, lagMs: 0 });
  });

  it('all go to the primary once the replica has not answered for maxLagMs', async () => {
    replica.failure = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' });
    await vi.advanceTimersByTimeAsync(MAX_LAG_MS + CHECK_MS);
    expect(routing.state()).toMatchObject({ inUse: false, bypassed: 'down' });
    expect(await readFrom(routing.reads([]))).toBe('primary');
  });

  it('that the replica cannot run (down, restarting, its schema behind) are run on the primary; a failure of the query itself is not', async () => {
    const reads = routing.reads([]);
    replica.failure = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
    });
    expect(await readFrom(reads)).toBe('primary');
    expect(routing.state()).toMatchObject({ inUse: false, bypassed: 'down' });
    replica.failure = Object.assign(new Error('relation "readings" does not exist'), { code: '42P01' });
    expect(await readFrom(reads)).toBe('primary');
    replica.failure = Object.assign(new Error('division by zero'), { code: '22012' });
    await expect(readFrom(reads)).rejects.toThrow('division by zero');
  });

  it('go to the primary while the replica is not a standby (promoted)', async () => {
    replica.lsn = null;
    await vi.advanceTimersByTimeAsync(MAX_LAG_MS + CHECK_MS);
    expect(routing.state()).toMatchObject({ inUse: false, bypassed: 'down' });
  });
});
