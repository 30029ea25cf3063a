import type { AuthContext } from './auth-context.ts';
import { AppError } from './errors.ts';

const RETRY_AFTER_S = 1;
/** How long a request past a limit waits for a slot before its 429. */
const ADMISSION_WAIT_MS = 250;

const tooMany = (whose: string) => () =>
  new AppError(429, 'Too many requests', `Too many expensive requests of ${whose} at once; retry shortly`, {
    'retry-after': String(RETRY_AFTER_S),
  });

/**
 * Slots per key: at most `limit` held at once for one key. A request past the limit waits for a
 * slot in order of arrival, at most the time it is given, then is refused.
 */
function keyedSlots(limit: number, refusal: () => AppError) {
  const running = new Map<string, number>();
  /** Per key, the wake-ups of the requests waiting for a slot, first come first served. */
  const waiting = new Map<string, (() => void)[]>();

  function waitForSlot(key: string, waitMs: number): Promise<void> {
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
        reject(refusal());
      }, waitMs);
      queue.push(wake);
    });
  }

  return {
    async acquire(key: string, waitMs: number): Promise<void> {
      const count = running.get(key) ?? 0;
      if (count < limit) {
        running.set(key, count + 1);
        return;
      }
      if (waitMs <= 0) throw refusal();
      await waitForSlot(key, waitMs);
    },

    /** Hands the slot to the first request waiting for one, else frees it. */
    release(key: string): void {
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
    },
  };
}

interface AdmissionLimits {
  /** Expensive requests one organization (the request's account_id) may run at once. */
  perOrganization: number;
  /** Expensive requests one user may run at once, over all the organizations they address. */
  perUser: number;
  /** How long a request past a limit waits for a slot before its 429. */
  waitMs?: number;
}

/**
 * Admission of expensive work (energy cost, large sums and profiles) per organization and per
 * user: a request runs once both its user and its organization have a free slot. It takes its
 * user's slot first, then its organization's, so that a request waiting for a busy organization
 * holds only a slot of its own caller, never one that other users of that organization need.
 * Past a limit it waits at most `waitMs` in all (in order of arrival), then is refused (429 with
 * Retry-After). Waiting holds no database connection; it paces a client that asks again at once
 * whatever Retry-After says, so that a flood of refusals does not take the event loop that other
 * organizations' requests need (measured in docs/PERFORMANCE.md, "Overload").
 */
export interface Admission {
  /** Runs fn once the caller and the organization have a free slot, else throws 429. The caller checks access first. */
  admit<T>(auth: Pick<AuthContext, 'userId'>, organizationId: string, fn: () => Promise<T>): Promise<T>;
}

export function createAdmission({ perOrganization, perUser, waitMs = ADMISSION_WAIT_MS }: AdmissionLimits): Admission {
  const users = keyedSlots(perUser, tooMany('yours'));
  const organizations = keyedSlots(perOrganization, tooMany('this organization'));
  return {
    async admit({ userId }, organizationId, fn) {
      const deadline = performance.now() + waitMs;
      await users.acquire(userId, waitMs);
      try {
        await organizations.acquire(organizationId, deadline - performance.now());
      } catch (error) {
        users.release(userId);
        throw error;
      }
      try {
        return await fn();
      } finally {
        organizations.release(organizationId);
        users.release(userId);
      }
    },
  };
}
