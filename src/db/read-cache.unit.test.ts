import { describe, expect, it } from 'vitest';
import { createReadCache, TTL_MS } from './read-cache.ts';
import type { Database, ListenerState, Transaction } from './types.ts';

/** A promise settled by the test: a load that is still reading. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * A database that listens and runs statements (the notifications invalidate() sends) without
 * delivering them: the test delivers notifications and listener states itself.
 */
function fakeDatabase() {
  const listener = {
    payload: (_payload: string) => {},
    state: (_state: ListenerState) => {},
    current: true,
  };
  const sent: string[][] = [];
  const db = {
    async listen(_channel: string, onPayload: (payload: string) => void, onState: (state: ListenerState) => void) {
      listener.payload = onPayload;
      listener.state = onState;
      onState('listening');
      return { isCurrent: () => listener.current, stop: async () => {} };
    },
    async query(_text: string, params: [string, string[]]) {
      sent.push(params[1]);
      return [];
    },
    changes() {},
    changed() {},
  } as unknown as Database & Transaction;
  /** Delivers what the oldest transaction not committed yet sent, as its commit would. */
  const commit = () => {
    for (const payload of sent.shift() ?? []) listener.payload(payload);
  };
  return { db, listener, commit };
}

async function startedCache() {
  const fake = fakeDatabase();
  const cache = createReadCache(fake.db);
  await cache.start();
  return { ...fake, cache };
}

describe('a read cache whose LISTEN connection drops and comes back', () => {
  it('does not keep what a load read before the drop', async () => {
    const { cache, listener } = await startedCache();
    const before = deferred<string>();
    const first = cache.get('key', () => before.promise);
    // The connection drops; a write's notice is lost with it; the connection comes back.
    listener.state('lost');
    listener.state('listening');
    before.resolve('before the write');
    expect(await first).toBe('before the write');
    expect(await cache.get('key', async () => 'after the write')).toBe('after the write');
  });

  it('keeps what a load read after it came back', async () => {
    const { cache } = await startedCache();
    expect(await cache.get('key', async () => 'first')).toBe('first');
    expect(await cache.get('key', async () => 'second')).toBe('first');
  });
});

describe('a value derived from another cached value', () => {
  it('is not kept when the value it was built on was invalidated before it was built', async () => {
    const { cache, db, commit } = await startedCache();
    const row = await cache.get('row', async () => ({ taxRate: 1 }));
    // A write changes the row (and what is derived from it) and commits; the notices arrive.
    await cache.invalidate(db, 'row', 'derived');
    commit();
    // A request that got the row before the write builds the derived value now, from the old row.
    expect(await cache.get('derived', async () => ({ taxRate: row.taxRate }), [row])).toEqual({ taxRate: 1 });
    // Built on the row before the write: not kept.
    expect(await cache.get('derived', async () => ({ taxRate: 2 }), [row])).toEqual({ taxRate: 2 });
  });

  it('is not kept when built on a row that the cache did not keep', async () => {
    const { cache } = await startedCache();
    const row = { taxRate: 1 };
    expect(await cache.get('derived', async () => ({ taxRate: 1 }), [row])).toEqual({ taxRate: 1 });
    expect(await cache.get('derived', async () => ({ taxRate: 2 }), [row])).toEqual({ taxRate: 2 });
  });

  it('is kept while the row it was built on is unchanged', async () => {
    const { cache } = await startedCache();
    const row = await cache.get('row', async () => ({ taxRate: 1 }));
    expect(await cache.get('derived', async () => 'first', [row])).toBe('first');
    expect(await cache.get('derived', async () => 'second', [row])).toBe('first');
  });
});

describe('keys written by this process', () => {
  it('stay uncached until each write that named them is seen committed, not only the first', async () => {
    const { cache, commit, db } = await startedCache();
    await cache.invalidate(db, 'key');
    await cache.invalidate(db, 'key'); // a second write, at the same time
    commit(); // the first write committed, the second not yet
    // Its commit not seen: what a load reads now may be about to change.
    expect(await cache.get('key', async () => 'before the second write')).toBe('before the second write');
    expect(await cache.get('key', async () => 'still uncached')).toBe('still uncached');
    commit();
    expect(await cache.get('key', async () => 'after the second write')).toBe('after the second write');
    expect(await cache.get('key', async () => 'kept')).toBe('after the second write');
  });

  it('are bypassed while the subscription is not current, and used again once it is', async () => {
    const { cache, listener } = await startedCache();
    expect(await cache.get('key', async () => 'kept')).toBe('kept');
    listener.current = false;
    expect(await cache.get('key', async () => 'read again')).toBe('read again');
    expect(cache.stats()).toEqual({ listening: false, hits: 0, misses: 1, bypasses: 1 });
    listener.current = true;
    expect(await cache.get('key', async () => 'kept')).toBe('kept');
    expect(cache.stats()).toEqual({ listening: true, hits: 1, misses: 1, bypasses: 1 });
  });
});

describe('what nothing changed', () => {
  /** A cache whose TTL_MS runs on a clock the test moves. */
  async function cacheWithClock() {
    // Not 0: lru-cache takes a start at 0 for none.
    const clock = { ms: 1000 };
    const fake = fakeDatabase();
    const cache = createReadCache(fake.db, { now: () => clock.ms });
    await cache.start();
    return { cache, clock };
  }

  it('keeps a version token, and the results kept by it, for TTL_MS: minutes, not one', async () => {
    const { cache, clock } = await cacheWithClock();
    const token = cache.version('meter-readings:1');
    clock.ms += TTL_MS - 2;
    expect(cache.version('meter-readings:1')).toBe(token);
    clock.ms += 3;
    expect(cache.version('meter-readings:1')).not.toBe(token);
    expect(TTL_MS).toBeGreaterThanOrEqual(600_000);
  });

  it('keeps a value for TTL_MS, then loads it again', async () => {
    const { cache, clock } = await cacheWithClock();
    let loads = 0;
    const load = async () => ({ loaded: ++loads });
    expect(await cache.get('tariff:1', load)).toEqual({ loaded: 1 });
    clock.ms += TTL_MS - 2;
    expect(await cache.get('tariff:1', load)).toEqual({ loaded: 1 });
    clock.ms += 3;
    expect(await cache.get('tariff:1', load)).toEqual({ loaded: 2 });
  });
});
