interface Entry<V> {
  tokens: readonly object[];
  result: Promise<V>;
  /** Counted once the result is there (0 until then). */
  size: number;
}

/** Results are shared by every request: frozen, so that none can change another's. */
function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child);
}

const sameTokens = (a: readonly object[], b: readonly object[]) =>
  a.length === b.length && a.every((token, i) => token === b[i]);

/**
 * Results of expensive reads kept by the versions of the data they were computed from (tokens of
 * ReadCache.version): one is served again while each of its tokens is still the current one, and
 * computed anew once one is not. The results kept add up to at most maxSize (each as sizeOf tells,
 * e.g. in bytes), the least recently used dropped first; a larger one is not kept.
 */
export function createVersionedResults<V>(maxSize: number, sizeOf: (value: V) => number) {
  const entries = new Map<string, Entry<V>>();
  let total = 0;

  const remove = (key: string, entry: Entry<V>) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    total -= entry.size;
  };

  /** Counts a result that has come, and drops the least recently used ones beyond maxSize. */
  const counted = (key: string, entry: Entry<V>, value: V) => {
    if (entries.get(key) !== entry) return;
    const size = sizeOf(value);
    if (size > maxSize) return remove(key, entry);
    entry.size = size;
    total += size;
    for (const [oldest, kept] of entries) {
      if (total <= maxSize) break;
      remove(oldest, kept);
    }
  };

  return {
    /**
     * The result kept under key for exactly these tokens, else compute()'s. The promise is kept, so
     * that identical requests at the same time share one computation; a failure is not kept.
     */
    get(tokens: readonly object[], key: string, compute: () => Promise<V>): Promise<V> {
      const hit = entries.get(key);
      if (hit && sameTokens(hit.tokens, tokens)) {
        // Last in the order: the most recently used.
        entries.delete(key);
        entries.set(key, hit);
        return hit.result;
      }
      if (hit) remove(key, hit);
      const entry: Entry<V> = {
        tokens,
        size: 0,
        result: compute().then((value) => {
          deepFreeze(value);
          counted(key, entry, value);
          return value;
        }),
      };
      entry.result.catch(() => remove(key, entry));
      entries.set(key, entry);
      return entry.result;
    },
  };
}

export type VersionedResults<V> = ReturnType<typeof createVersionedResults<V>>;
