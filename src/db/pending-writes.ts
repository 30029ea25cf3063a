import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

/** How long the keys of a write whose commit is never seen (rolled back) stay pending. */
const PENDING_MS = 10_000;

/**
 * This process's writes that named cache keys and whose commit has not been seen yet: each gets an
 * id, and its transaction sends a notification with it after its keys; until that arrives, its keys
 * are pending (nothing read of them can be kept, the data may be about to change). Counted per write,
 * so that one write's commit does not release a key another write still holds. A write rolled back
 * sends nothing: its keys stay pending for PENDING_MS.
 */
export function createPendingWrites() {
  const prefix = `${randomUUID()}:`;
  let count = 0;
  /** By id, in the order begun (so also of their deadlines). */
  const writes = new Map<string, { keys: readonly string[]; until: number }>();
  const holders = new Map<string, number>();

  function settle(id: string) {
    const write = writes.get(id);
    if (!write) return;
    writes.delete(id);
    for (const key of write.keys) {
      const left = (holders.get(key) ?? 1) - 1;
      if (left === 0) holders.delete(key);
      else holders.set(key, left);
    }
  }

  function expire() {
    const now = performance.now();
    for (const [id, write] of writes) {
      if (write.until > now) break;
      settle(id);
    }
  }

  return {
    /** A write begins to change keys: its id, for the notification that tells it committed. */
    begin(keys: readonly string[]): string {
      expire();
      const id = `${prefix}${++count}`;
      const unique = [...new Set(keys)];
      writes.set(id, { keys: unique, until: performance.now() + PENDING_MS });
      for (const key of unique) holders.set(key, (holders.get(key) ?? 0) + 1);
      return id;
    },

    /** The write id committed (another process's ids are not known here and change nothing). */
    committed: settle,

    has(key: string): boolean {
      if (writes.size > 0) expire();
      return holders.has(key);
    },
  };
}
