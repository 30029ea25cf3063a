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

    /** The cached value of key, or load()'s, which is kept only if no write touched the key meanwhile. */
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      if (!listening || isDirty(key)) return load();
      const hit = entries.get(key);
      if (hit && hit.expires > Date.now()) return hit.value as T;
      const generation = generations.get(key);
      const value = await load();
      // Absent rows are not kept: a row created later under the same key must be seen at once.
      if (value !== undefined && listening && generations.get(key) === generation && !isDirty(key)) store(key, value);
      return value;
    },

    /** Marks keys as changed by the transaction tx; every process drops them once it commits. */
    async invalidate(tx: Executor, ...keys: string[]) {
      if (dirtyUntil.size > MAX_ENTRIES)
        for (const [key, until] of dirtyUntil) if (until < Date.now()) dirtyUntil.delete(key);
      for (const key of keys) {
        dirtyUntil.set(key, Date.now() + DIRTY_MS);
        drop(key);
        await tx.query('SELECT pg_notify($1, $2)', [CHANNEL, key]);
      }
    },
  };
}

export type ReadCache = ReturnType<typeof createReadCache>;

/** The cache keys of the data that is cached. */
export const cacheKeys = {
  memberships: (accountId: string) => `memberships:${accountId}`,
  /** The live tariff with its items and DSO. */
  tariff: (id: number) => `tariff:${id}`,
  /** The same, deleted or not: what a tariff history names. */
  tariffRecord: (id: number) => `tariff-record:${id}`,
  /** What pricing needs of the tariff: its items as the engine takes them, and its calendar. */
  tariffPricing: (id: number) => `tariff-pricing:${id}`,
};

/** Every cached value derived from one tariff (its row, items, blocks): a write to any of them drops them all. */
export const tariffCacheKeys = (id: number) => [
  cacheKeys.tariff(id),
  cacheKeys.tariffRecord(id),
  cacheKeys.tariffPricing(id),
];
