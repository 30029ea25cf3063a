import type { Database, Executor } from './types.ts';

const CHANNEL = 'ums_cache';
const TTL_MS = 60_000;
const MAX_ENTRIES = 20_000;
/** How long a key written by an uncommitted (or rolled back) transaction stays uncached. */
const DIRTY_MS = 10_000;

/**
 * An in-process cache of hot reads (memberships, tariffs with their items) shared by every
 * process on one database. A write names the keys it changes with invalidate() inside its
 * transaction: the key is dropped here at once and stays uncached until the NOTIFY that the
 * commit delivers to every process (this one included) drops it everywhere. While the LISTEN
 * connection is down, nothing is served from the cache; when it comes back, all is dropped.
 */
export function createReadCache(db: Database) {
  const entries = new Map<string, { value: unknown; expires: number }>();
  const generations = new Map<string, number>();
  const dirtyUntil = new Map<string, number>();
  let listening = false;
  let stopListening: (() => Promise<void>) | undefined;

  const bump = (key: string) => generations.set(key, (generations.get(key) ?? 0) + 1);
  const drop = (key: string) => {
    entries.delete(key);
    bump(key);
  };
  const isDirty = (key: string) => (dirtyUntil.get(key) ?? 0) > Date.now();

  /** Cached values are shared by every request: frozen, so that none can change another's. */
  function deepFreeze(value: unknown): void {
    if (value === null || typeof value !== 'object' || Object.isFrozen(value) || value instanceof Map) return;
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }

  function store(key: string, value: unknown) {
    deepFreeze(value);
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
    entries.set(key, { value, expires: Date.now() + TTL_MS });
  }

  /** The cached value of key, or load()'s, which is kept only if no write touched the key meanwhile. */
  async function get<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (!listening || isDirty(key)) return load();
    const hit = entries.get(key);
    if (hit && hit.expires > Date.now()) return hit.value as T;
    const generation = generations.get(key);
    const value = await load();
    // Absent rows are not kept: a row created later under the same key must be seen at once.
    if (value !== undefined && listening && generations.get(key) === generation && !isDirty(key)) store(key, value);
    return value;
  }

  return {
    async start() {
      stopListening = await db.listen(
        CHANNEL,
        (key) => {
          dirtyUntil.delete(key);
          drop(key);
        },
        (state) => {
          listening = state;
          entries.clear();
          generations.clear();
        },
      );
    },

    async stop() {
      listening = false;
      await stopListening?.();
    },

    get,

    /**
     * A token of what key names as it is now: the same object until the key is invalidated (here or
     * by another process's NOTIFY) or its time to live passes, so that a result computed from the
     * key's data can be kept by it. A fresh one on every call while nothing can be kept (the cache
     * is not listening, or a transaction not yet committed everywhere wrote the key). Nothing is
     * read: it takes no time.
     */
    version(key: string): object {
      // Not get(key, load): two calls of one tick would each make a token, the second kept.
      if (!listening || isDirty(key)) return {};
      const hit = entries.get(key);
      if (hit && hit.expires > Date.now()) return hit.value as object;
      const token = {};
      store(key, token);
      return token;
    },

    /** Marks keys as changed by the transaction tx; every process drops them once it commits. */
    async invalidate(tx: Executor, ...keys: string[]) {
      if (dirtyUntil.size > MAX_ENTRIES)
        for (const [key, until] of dirtyUntil) if (until < Date.now()) dirtyUntil.delete(key);
      for (const key of keys) {
        dirtyUntil.set(key, Date.now() + DIRTY_MS);
        drop(key);
      }
      await notifyChanged(tx, keys);
    },
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
  invalidate: (tx, ...keys) => notifyChanged(tx, keys),
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
  /** A meter's readings (and their rollups): nothing is cached by it, results derived from them are kept by its version. */
  meterReadings: (meterId: number) => `meter-readings:${meterId}`,
};

/** Every cached value derived from one tariff (its row, items, blocks): a write to any of them drops them all. */
export const tariffCacheKeys = (id: number) => [
  cacheKeys.tariff(id),
  cacheKeys.tariffRecord(id),
  cacheKeys.tariffPricing(id),
];
