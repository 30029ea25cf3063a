import { AppError } from './errors.ts';

const RETRY_AFTER_S = 1;

/**
 * Admission of expensive work (energy cost, large sums and profiles) per organization: at most
 * `limit` run at once for one key; more are refused at once (429 with Retry-After) rather than
 * queued, so that one organization's flood holds neither the database pool nor the event loop
 * that other organizations' requests need.
 */
export interface Admission {
  /** Runs fn if key has fewer than the limit running, else throws 429. The caller checks access first. */
  admit<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function createAdmission(limit: number): Admission {
  const running = new Map<string, number>();
  return {
    async admit(key, fn) {
      const count = running.get(key) ?? 0;
      if (count >= limit) {
        throw new AppError(
          429,
          'Too many requests',
          'Too many expensive requests of this organization at once; retry shortly',
          {
            'retry-after': String(RETRY_AFTER_S),
          },
        );
      }
      running.set(key, count + 1);
      try {
        return await fn();
      } finally {
        const left = running.get(key)! - 1;
        if (left === 0) running.delete(key);
        else running.set(key, left);
      }
    },
  };
}
