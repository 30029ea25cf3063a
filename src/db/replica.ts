import { performance } from 'node:perf_hooks';
import { DatabaseBusyError } from './database-busy.ts';
import { isPostgresError, PG_ERROR, sqlState } from './postgres-errors.ts';
import type { Executor, ReplicaState } from './types.ts';

/** A position in the WAL ('16/B374D848') as a number that orders them. */
export function walPosition(lsn: string): bigint {
  const [high = '0', low = '0'] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) | BigInt(`0x${low}`);
}

/** Whether a failed replica read is the replica's trouble (down, restarting, not there yet), not the query's. */
function replicaTrouble(error: unknown): boolean {
  if (error instanceof DatabaseBusyError) return !isPostgresError(error.cause, PG_ERROR.QUERY_CANCELED);
  const code = sqlState(error);
  // No SQLSTATE: the socket's error (ECONNREFUSED, a connection ended).
  if (code === undefined || code.length !== 5) return true;
  // Connection failures, shutdowns, a database not yet replayed, a query cancelled by replay.
  if (code.startsWith('08') || code.startsWith('57P') || code === '3D000' || code === PG_ERROR.SERIALIZATION_FAILURE)
    return true;
  // A table, column or function of a migration the replica has not replayed yet.
  return code === '42P01' || code === '42703' || code === '42883';
}

interface ReplicaOptions {
  /** REPLICA_MAX_LAG_MS: a replica further behind (or not answering for this long) is bypassed. */
  maxLagMs: number;
  /** The clock, in ms (default performance.now). */
  now?: () => number;
}

/**
 * The expensive reads' way between the primary and a streaming replica. One check, every
 * maxLagMs / 4 (at most 250 ms), serves all reads: it takes the primary's WAL position
 * (pg_current_wal_lsn()), then the replica's replayed position (pg_last_wal_replay_lsn()). The
 * replica is used while it answered the last check within maxLagMs and has replayed every position
 * seen more than maxLagMs ago.
 *
 * Read-your-writes: the keys a commit changed (this process's writes, once committed, and other
 * processes' as their notices arrive) are read from the primary until the replica has replayed
 * the primary's position taken by the next check, which is past that commit.
 */
export function createReplicaRouting(
  primary: Executor,
  replica: Executor,
  { maxLagMs, now = () => performance.now() }: ReplicaOptions,
) {
  /** Positions kept while the replica is not seen to replay them (about 40 minutes of checks). */
  const MAX_UNREPLAYED = 10_000;

  /** Keys changed by commits made before the next check's position is taken. */
  let changedSinceCheck = new Set<string>();
  /** Keys changed before the running check asked for the primary's position, until it has it. */
  let changedBeforePosition = new Set<string>();
  /** Keys read from the primary until the replica has replayed this position. */
  const readFromPrimaryUntil = new Map<string, bigint>();
  /** Positions of the primary the replica has not been seen to replay, oldest first, with when each was taken. */
  const unreplayed: { position: bigint; at: number }[] = [];
  let replayed = -1n;
  let answeredAt = Number.NEGATIVE_INFINITY;
  let checking = false;

  const lagMs = () => (unreplayed.length > 0 ? Math.round(now() - unreplayed[0]!.at) : 0);
  const answering = () => now() - answeredAt <= maxLagMs;
  const usable = () => answering() && lagMs() <= maxLagMs;
  const behindOn = (key: string) =>
    changedSinceCheck.has(key) || changedBeforePosition.has(key) || (readFromPrimaryUntil.get(key) ?? -1n) > replayed;

  async function primaryPosition(): Promise<boolean> {
    changedBeforePosition = changedSinceCheck;
    changedSinceCheck = new Set();
    const at = now();
    try {
      const [row] = await primary.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
      const position = walPosition(row!.lsn);
      for (const key of changedBeforePosition) readFromPrimaryUntil.set(key, position);
      const last = unreplayed.at(-1);
      if ((!last || position > last.position) && unreplayed.length < MAX_UNREPLAYED) unreplayed.push({ position, at });
      return true;
    } catch {
      for (const key of changedBeforePosition) changedSinceCheck.add(key);
      return false;
    } finally {
      changedBeforePosition = new Set();
    }
  }

  async function replicaPosition() {
    try {
      const [row] = await replica.query<{ lsn: string | null }>('SELECT pg_last_wal_replay_lsn()::text AS lsn');
      // null: not a standby (promoted, or the primary itself): not a replica of it any more.
      if (!row?.lsn) return;
      replayed = walPosition(row.lsn);
      answeredAt = now();
      while (unreplayed.length > 0 && unreplayed[0]!.position <= replayed) unreplayed.shift();
      for (const [key, position] of readFromPrimaryUntil) if (position <= replayed) readFromPrimaryUntil.delete(key);
    } catch {
      // Not answering: bypassed once answeredAt is maxLagMs old; reads that fail on it go to the primary.
    }
  }

  async function check() {
    if (checking) return;
    checking = true;
    try {
      if (await primaryPosition()) await replicaPosition();
    } finally {
      checking = false;
    }
  }

  const timer = setInterval(() => void check(), Math.min(250, maxLagMs / 4));
  timer.unref();
  void check();

  /** The replica, which hands a read it cannot run to the primary. */
  const replicaOrPrimary: Executor = {
    async query<T>(...args: Parameters<Executor['query']>) {
      try {
        return await replica.query<T>(...args);
      } catch (error) {
        if (!replicaTrouble(error)) throw error;
        answeredAt = Number.NEGATIVE_INFINITY;
        return primary.query<T>(...args);
      }
    },
    exec: (script) => primary.exec(script),
  };

  return {
    /** The executor for an expensive read of what keys name. */
    reads: (keys: readonly string[]): Executor => (usable() && !keys.some(behindOn) ? replicaOrPrimary : primary),

    /** keys changed in a commit already made. */
    changed(keys: Iterable<string>) {
      for (const key of keys) changedSinceCheck.add(key);
    },

    state(): ReplicaState {
      const lag = lagMs();
      if (!answering()) return { inUse: false, lagMs: lag, bypassed: 'down' };
      if (lag > maxLagMs) return { inUse: false, lagMs: lag, bypassed: 'lagging' };
      return { inUse: true, lagMs: lag };
    },

    stop() {
      clearInterval(timer);
    },
  };
}

export type ReplicaRouting = ReturnType<typeof createReplicaRouting>;
