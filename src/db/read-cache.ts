import { LRUCache } from 'lru-cache';
import { deepFreeze } from './deep-freeze.ts';
import { createPendingWrites } from './pending-writes.ts';
import type { Database, Executor, ListenerState, Subscription, Transaction } from './types.ts';

const CHANNEL = 'ums_cache';
/** The payload that tells a write committed (its id follows); every other payload is a key. */
const COMMITTED_PREFIX = 'ums-written:';
/**
 * How long a value or a version token is kept at most: a backstop for a write that would forget to
 * name its keys, not what keeps the cache current (the notices and the heartbeat do, within
 * CACHE_STALE_MS). A token's end drops every result kept by it (a meter's months, its bills, a
 * building's facts), all at once: at 60 s, every minute a neighbour's bill re-read its months while
 * a flood ran, 26-39 ms instead of 3 (measured in the history of docs/PERFORMANCE.md).
 */
export const TTL_MS = 600_000;
const MAX_ENTRIES = 20_000;
/** Keys whose generation is remembered; beyond, all are forgotten at once (a new epoch). */
const MAX_GENERATIONS = 100_000;

/** What the log of a listener state says, and how loud. */
const STATE_LOG: Record<ListenerState, { level: 'info' | 'warn'; message: string }> = {
  listening: { level: 'info', message: 'Read cache: listening for changes, cache in use' },
  late: { level: 'warn', message: 'Read cache: change notices are late, cache bypassed' },
  lost: { level: 'warn', message: 'Read cache: change notice connection lost, cache bypassed, reconnecting' },
};

/** What the cache logs to (pino's and Fastify's loggers have this shape). */
interface CacheLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

interface ReadCacheOptions {
  /** The oldest a served value may be, in ms: CACHE_STALE_MS. */
  staleMs?: number;
  log?: CacheLog;
  /** The clock of TTL_MS, in ms (default performance.now). */
  now?: () => number;
}

/** A value read under key while the epoch and the key's generation were these. */
interface Stamp {
  key: string;
  epoch: number;
  generation: number;
}

/**
 * An in-process cache of hot reads (memberships, tariffs with their items) shared by every
 * process on one database. A write names the keys it changes with invalidate() inside its
 * transaction: the key is dropped here at once and stays uncached until this process sees the
 * write commit (a notification of the transaction); the NOTIFY that the commit delivers to every
 * process drops it everywhere. Nothing is served from the cache while the LISTEN subscription is
 * not current (a notification committed more than staleMs ago may be missing); when its state
 * changes, all is dropped and a new epoch begins, so that no load begun before is kept.
 *
 * A load is kept only if no notice touched its key (or the keys of the values it was derived
 * from) between the moment before it read and the moment it is kept.
 */
export function createReadCache(
  db: Database,
  { staleMs = 1000, log, now = () => performance.now() }: ReadCacheOptions = {},
) {
  /** The values kept, the least recently used dropped first beyond MAX_ENTRIES, none kept past TTL_MS. */
  const entries = new LRUCache<string, { value: unknown }>({
    max: MAX_ENTRIES,
    ttl: TTL_MS,
    perf: { now },
    // The clock read at each lookup, not once per millisecond: cheap, and what a test's clock says.
    ttlResolution: 0,
  });
  const generations = new Map<string, number>();
  /** The stamp of each value kept, for the values derived from it. */
  const stamps = new WeakMap<object, Stamp>();
  const pending = createPendingWrites();
  let epoch = 0;
  let state: ListenerState | undefined;
  let subscription: Subscription | undefined;
  const counts = { hits: 0, misses: 0, bypasses: 0 };

  const usable = () => state === 'listening' && subscription?.isCurrent() === true;
  const stampOf = (key: string): Stamp => ({ key, epoch, generation: generations.get(key) ?? 0 });
  const unchanged = (stamp: Stamp) =>
    stamp.epoch === epoch && (generations.get(stamp.key) ?? 0) === stamp.generation && !pending.has(stamp.key);
  /** Whether a value handed out earlier is still what its key holds (false for one that was never kept). */
  const stillCurrent = (value: object) => {
    const stamp = stamps.get(value);
    return stamp !== undefined && unchanged(stamp);
  };

  function newEpoch() {
    epoch++;
    entries.clear();
    generations.clear();
  }

  function drop(key: string) {
    entries.delete(key);
    if (generations.size >= MAX_GENERATIONS) newEpoch();
    generations.set(key, (generations.get(key) ?? 0) + 1);
  }

  function store(stamp: Stamp, value: unknown) {
    deepFreeze(value);
    entries.set(stamp.key, { value });
    if (typeof value === 'object' && value !== null) stamps.set(value, stamp);
  }

  function changeState(next: ListenerState) {
    state = next;
    newEpoch();
    const { level, message } = STATE_LOG[next];
    log?.[level]({ cacheListener: next }, message);
  }

  function received(payload: string) {
    if (payload.startsWith(COMMITTED_PREFIX)) pending.committed(payload.slice(COMMITTED_PREFIX.length));
    else {
      drop(payload);
      db.changed([payload]);
    }
  }

  /**
   * The cached value of key, or load()'s, which is kept only if no write touched the key meanwhile.
   * derivedFrom names values load() builds on that came from this cache (a tariff row for its
   * pricing): it is kept only if each of them is still what its own key holds.
   */
  async function get<T>(key: string, load: () => Promise<T>, derivedFrom: readonly object[] = []): Promise<T> {
    if (!usable() || pending.has(key)) {
      counts.bypasses++;
      return load();
    }
    const hit = entries.get(key);
    if (hit) {
      counts.hits++;
      return hit.value as T;
    }
    counts.misses++;
    const stamp = stampOf(key);
    const value = await load();
    // Absent rows are not kept: a row created later under the same key must be seen at once.
    if (value !== undefined && usable() && unchanged(stamp) && derivedFrom.every(stillCurrent)) store(stamp, value);
    return value;
  }

  return {
    async start() {
      subscription = await db.listen(CHANNEL, received, changeState, staleMs);
    },

    async stop() {
      state = undefined;
      await subscription?.stop();
    },

    get,

    /**
     * A token of what key names as it is now: the same object until the key is invalidated (here or
     * by another process's NOTIFY) or its time to live passes, so that a result computed from the
     * key's data can be kept by it. A fresh one on every call while nothing can be kept (the cache
     * is not current, or a write of this process not yet seen committed named the key). Nothing is
     * read: it takes no time.
     */
    version(key: string): object {
      // Not get(key, load): two calls of one tick would each make a token, the second kept.
      if (!usable() || pending.has(key)) return {};
      const hit = entries.get(key);
      if (hit) return hit.value as object;
      const token = {};
      store(stampOf(key), token);
      return token;
    },

    /**
     * Marks keys as changed by the transaction tx; every process drops them once it commits, and
     * reads them from the primary until the replica has replayed it.
     */
    async invalidate(tx: Transaction, ...keys: string[]) {
      const write = pending.begin(keys);
      for (const key of keys) drop(key);
      tx.changes(keys);
      await notifyChanged(tx, [...keys, `${COMMITTED_PREFIX}${write}`]);
    },

    /** Whether the cache is in use (its subscription current), and how lookups went since the start. */
    stats: () => ({ listening: usable(), ...counts }),
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;

/**
 * Tells every process listening that keys change when tx commits: one statement however many keys
 * (a batch of readings of 1,000 meters costs one round trip).
 */
async function notifyChanged(tx: Executor, keys: readonly string[]) {
  if (keys.length === 0) return;
  await tx.query('SELECT pg_notify($1, k) FROM unnest($2::text[]) k', [CHANNEL, keys]);
}

/** What a writer needs of a read cache: invalidate() inside its transaction. */
export type CacheInvalidation = Pick<ReadCache, 'invalidate'>;

/**
 * The invalidation of a process that caches nothing (a command, the seed): the servers on the same
 * database drop the keys once the transaction commits.
 */
export const notifyOtherProcesses: CacheInvalidation = {
  invalidate(tx, ...keys) {
    tx.changes(keys);
    return notifyChanged(tx, keys);
  },
};

/** The cache keys of the data that is cached. */
export const cacheKeys = {
  memberships: (accountId: string) => `memberships:${accountId}`,
  /** The live tariff with its items and DSO. */
  tariff: (id: number) => `tariff:${id}`,
  /** The same, deleted or not: what a tariff history names. */
  tariffRecord: (id: number) => `tariff-record:${id}`,
  /** What pricing needs of the tariff: its items as the engine takes them, and its calendar. */
  tariffPricing: (id: number) => `tariff-pricing:${id}`,
  /** The meter with this serial, as reads look it up (its id, organization, type and interval). */
  meterBySerial: (meterSn: string) => `meter-serial:${meterSn}`,
  /**
   * What a building's cost reads of an organization's blocks (their dashboard configs, the meters
   * these name, their tariff histories, the organization's pending transitions): nothing is cached
   * by it, the facts are kept by its version. Every write to any of them names it.
   */
  buildingFacts: (accountId: string) => `building-facts:${accountId}`,
  /** A meter's readings (and their rollups): nothing is cached by it, results derived from them are kept by its version. */
  meterReadings: (meterId: number) => `meter-readings:${meterId}`,
};

/** Every cached value derived from one tariff (its row, items, blocks): a write to any of them drops them all. */
export const tariffCacheKeys = (id: number) => [
  cacheKeys.tariff(id),
  cacheKeys.tariffRecord(id),
  cacheKeys.tariffPricing(id),
];
