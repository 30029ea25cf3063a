import { type DependencyList, useCallback, useEffect, useState } from 'react';

export type Resource<T> =
  | { status: 'loading'; data?: undefined; error?: undefined; reload: () => void }
  | { status: 'ready'; data: T; error?: undefined; reload: () => void }
  | { status: 'failed'; data?: undefined; error: Error; reload: () => void };

/**
 * Loads data when the dependencies change: loading, ready or failed, and reload. An answer that
 * arrives after the dependencies changed again is dropped.
 */
export function useResource<T>(load: () => Promise<T>, deps: DependencyList): Resource<T> {
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'failed'; data?: T; error?: Error }>({
    status: 'loading',
  });
  const [generation, setGeneration] = useState(0);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names what load depends on.
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (data) => current && setState({ status: 'ready', data }),
      (error: unknown) =>
        current && setState({ status: 'failed', error: error instanceof Error ? error : new Error(String(error)) }),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]);

  return { ...state, reload } as Resource<T>;
}
