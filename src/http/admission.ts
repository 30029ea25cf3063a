import { AppError } from './errors.ts';

const RETRY_AFTER_S = 1;
/** How long a request past the limit waits for a slot of its organization before its 429. */
export const ADMISSION_WAIT_MS = 250;

const tooMany = () =>
  new AppError(429, 'Too many requests', 'Too many expensive requests of this organization at once; retry shortly', {
    'retry-after': String(RETRY_AFTER_S),
  });

/**
 * Admission of expensive work (energy cost, large sums and profiles) per organization: at most
 * `limit` run at once for one key. A request past the limit waits at most `waitMs` for a slot (in
 * order of arrival), then is refused (429 with Retry-After). Waiting holds no database connection;
 * it paces a client that asks again at once whatever Retry-After says, so that one
 * organization's flood of refusals does not take the event loop that other organizations'
 * requests need (measured in docs/PERFORMANCE.md, "Overload").
 */
export interface Admission {
  /** Runs fn once key has fewer than the limit running, else throws 429. The caller checks access first. */
  admit<T>(key: string, fn: () => Promise<T>): Promise<T>;
}

export function createAdmission(limit: number, waitMs = ADMISSION_WAIT_MS): Admission {
  const running = new Map<string, number>();
  /** Per key, the wake-ups of the requests waiting for a slot, first come first served. */
  const waiting = new Map<string, (() => void)[]>();

  function waitForSlot(key: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = waiting.get(key) ?? [];
      waiting.set(key, queue);
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(wake), 1);
        if (queue.length === 0) waiting.delete(key);
        reject(tooMany());
      }, waitMs);
      queue.push(wake);
    });
  }

  async function acquire(key: string): Promise<void> {
    const count = running.get(key) ?? 0;
    if (count < limit) {
      running.set(key, count + 1);
      return;
    }
    if (waitMs <= 0) throw tooMany();
    await waitForSlot(key);
  }

  /** Hands the slot to the first request waiting for one, else frees it. */
  function release(key: string): void {
    const queue = waiting.get(key);
    const next = queue?.shift();
    if (queue?.length === 0) waiting.delete(key);
    if (next) {
      next();
      return;
    }
    const left = running.get(key)! - 1;
    if (left === 0) running.delete(key);
    else running.set(key, left);
  }

  return {
    async admit(key, fn) {
      await acquire(key);
      try {
        return await fn();
      } finally {
        release(key);
      }
    },
  };
}
