interface Entry {
  tokens: readonly object[];
  size: number;
  result: Promise<unknown>;
}

/** Results are shared by every request: frozen, so that none can change another's (and their JSON is written once). */
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
 * computed anew once one is not. Each result has a size (how much memory it takes, in the caller's
 * unit); those kept add up to at most maxSize, the least recently used dropped first.
 */
export function createVersionedResults(maxSize: number) {
  const entries = new Map<string, Entry>();
  let total = 0;

  const remove = (key: string, entry: Entry) => {
    if (entries.get(key) !== entry) return;
    entries.delete(key);
    total -= entry.size;
  };

  return {
    /**
     * The result kept under key for exactly these tokens, else compute()'s. The promise is kept, so
     * that identical requests at the same time share one computation; a failure is not kept.
     */
    get<T>(tokens: readonly object[], key: string, size: number, compute: () => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      if (hit && sameTokens(hit.tokens, tokens)) {
        // Last in the order: the most recently used.
        entries.delete(key);
        entries.set(key, hit);
        return hit.result as Promise<T>;
      }
      if (hit) remove(key, hit);
      const result = compute().then((value) => {
        deepFreeze(value);
        return value;
      });
      if (size > maxSize) return result;
      const entry = { tokens, size, result };
      result.catch(() => remove(key, entry));
      for (const [oldest, kept] of entries) {
        if (total + size <= maxSize) break;
        remove(oldest, kept);
      }
      entries.set(key, entry);
      total += size;
      return result;
    },
  };
}

export type VersionedResults = ReturnType<typeof createVersionedResults>;
