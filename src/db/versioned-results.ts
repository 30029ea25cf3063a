import { LRUCache } from 'lru-cache';
import { deepFreeze } from './deep-freeze.ts';

interface Entry<V> {
  tokens: readonly object[];
  result: Promise<V>;
}

const sameTokens = (a: readonly object[], b: readonly object[]) =>
  a.length === b.length && a.every((token, i) => token === b[i]);

export interface VersionedResultsOptions {
  /**
   * Keep a result only once its key has been asked for before (the keys asked for once are
   * remembered, at most this many): a flood of requests each of its own is then never kept, so it
   * neither pushes out the results asked for again and again nor fills the heap with garbage.
   */
  keepOnSecondRequest?: { keysRemembered: number };
}

/**
 * Results of expensive reads kept by the versions of the data they were computed from (tokens of
 * ReadCache.version): one is served again while each of its tokens is still the current one, and
 * computed anew once one is not. The results kept add up to at most maxSize (each as sizeOf tells,
 * e.g. in bytes), the least recently used dropped first; a larger one is not kept. With maxSize 0
 * none is.
 */
export function createVersionedResults<V>(
  maxSize: number,
  sizeOf: (value: V) => number,
  { keepOnSecondRequest }: VersionedResultsOptions = {},
) {
  // Nothing kept: every result is computed.
  if (maxSize === 0) {
    return {
      keeps: false,
      kept: (_tokens: readonly object[], _key: string): Promise<V> | undefined => undefined,
      get: (_tokens: readonly object[], _key: string, compute: () => Promise<V>) => compute(),
    };
  }
  // A result is counted once it has come; until then its entry counts 1.
  const entries = new LRUCache<string, Entry<V>>({ maxSize });
  const askedOnce = keepOnSecondRequest && new LRUCache<string, true>({ max: keepOnSecondRequest.keysRemembered });

  /** Whether the result of key is kept now that it has come. */
  function keeps(key: string): boolean {
    if (!askedOnce || askedOnce.delete(key)) return true;
    askedOnce.set(key, true);
    return false;
  }

  /** The result kept (or on its way) under key for exactly these tokens, if any. */
  function kept(tokens: readonly object[], key: string): Promise<V> | undefined {
    const hit = entries.get(key);
    return hit && sameTokens(hit.tokens, tokens) ? hit.result : undefined;
  }

  return {
    /** Whether results are kept at all (maxSize above 0). */
    keeps: true,
    kept,
    /**
     * The result kept under key for exactly these tokens, else compute()'s. The promise is kept, so
     * that identical requests at the same time share one computation; a failure is not kept.
     */
    get(tokens: readonly object[], key: string, compute: () => Promise<V>): Promise<V> {
      const hit = kept(tokens, key);
      if (hit) return hit;
      const entry: Entry<V> = {
        tokens,
        result: compute().then((value) => {
          deepFreeze(value);
          if (entries.peek(key) !== entry) return value;
          // Counted as a new entry (lru-cache keeps an entry's size while its value stays the
          // same object); one larger than maxSize is not kept.
          if (keeps(key)) entries.set(key, { tokens, result: entry.result }, { size: Math.max(1, sizeOf(value)) });
          else entries.delete(key);
          return value;
        }),
      };
      entry.result.catch(() => {
        if (entries.peek(key) === entry) entries.delete(key);
      });
      entries.set(key, entry, { size: 1 });
      return entry.result;
    },
  };
}

export type VersionedResults<V> = ReturnType<typeof createVersionedResults<V>>;
