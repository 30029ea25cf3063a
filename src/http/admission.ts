import { Gauge, type Registry } from 'prom-client';
import type { AuthContext } from './auth-context.ts';
import { AppError } from './errors.ts';

const RETRY_AFTER_S = 1;
/**
 * How long a user must have had nothing running, waiting or refused to start from the reserve: far
 * longer than a client takes to ask again after an answer, far shorter than between the requests
 * of a person's page.
 */
export const RESERVE_IDLE_MS = 50;

const tooMany = (whose: string) =>
  new AppError(429, 'Too many requests', `Too many expensive requests ${whose} at once; retry shortly`, {
    'retry-after': String(RETRY_AFTER_S),
  });

interface AdmissionLimits {
  /** Expensive requests one organization (the request's account_id) may run at once. */
  perOrganization: number;
  /** Expensive requests one user may run at once, over all the organizations they address. */
  perUser: number;
  /** Expensive requests the process runs at once, over all users (default: no such limit). */
  total?: number;
  /**
   * How many more than `total` may run, each the request of a user who arrives after at least
   * RESERVE_IDLE_MS with nothing running, waiting or refused (default 0): such a user's request
   * does not wait for the running ones of users who keep asking. A waiting request never takes the
   * reserve.
   */
  idleUserReserve?: number;
  /** The clock of RESERVE_IDLE_MS, in ms (default performance.now). */
  now?: () => number;
  /** How long a request past a limit waits for a slot before its 429 (0: no wait). */
  waitMs: number;
}

/**
 * Admission of expensive work (energy cost, large sums and profiles): a request runs once its
 * user, its organization and the process each have a free slot. Past a limit it waits, holding no
 * slot and no database connection, at most `waitMs`, then is refused (429 with Retry-After). A
 * freed slot goes to the waiting request that can use it whose user runs the fewest expensive
 * requests, then whose user has waited longest since their last turn, then whose organization runs
 * the fewest, then the earliest: a user flooding through many organizations takes turns with every
 * other user instead of filling the process first come first served (measured in
 * docs/PERFORMANCE.md, "Fairness"). Past the total, a request whose user has had nothing running,
 * waiting or refused for RESERVE_IDLE_MS starts at once while the reserve lasts: a neighbour's
 * request does not wait for the flood's running one, and a user who keeps asking never takes it.
 * The wait paces a client that asks again at once whatever Retry-After says ("Overload").
 */
export interface Admission {
  /** Runs fn once the caller, the organization and the process have a free slot, else throws 429. The caller checks access first. */
  admit<T>(auth: Pick<AuthContext, 'userId'>, organizationId: string, fn: () => Promise<T>): Promise<T>;
  /** Expensive requests running and waiting for a slot now. */
  load(): { running: number; waiting: number };
}

interface Waiter {
  userId: string;
  organizationId: string;
  admit: () => void;
}

/** Counts of requests per key; a key at 0 has no entry. */
function counter() {
  const counts = new Map<string, number>();
  return {
    of: (key: string) => counts.get(key) ?? 0,
    add(key: string, step: 1 | -1) {
      const count = (counts.get(key) ?? 0) + step;
      if (count === 0) counts.delete(key);
      else counts.set(key, count);
    },
  };
}

export function createAdmission({
  perOrganization,
  perUser,
  total = Number.POSITIVE_INFINITY,
  idleUserReserve = 0,
  now = () => performance.now(),
  waitMs,
}: AdmissionLimits): Admission {
  const users = counter();
  const usersWaiting = counter();
  const organizations = counter();
  let running = 0;
  /** In order of arrival. */
  const waiting: Waiter[] = [];
  /** Per user running or waiting, the number of the admission that last started one of theirs. */
  const lastTurns = new Map<string, number>();
  let admissions = 0;
  /**
   * When each user's last expensive request ended or was refused, oldest first (a user's entry moves
   * to the end), for RESERVE_IDLE_MS: older entries are dropped as they age.
   */
  const lastActive = new Map<string, number>();

  function markActive(userId: string): void {
    const at = now();
    lastActive.delete(userId);
    lastActive.set(userId, at);
    for (const [user, time] of lastActive) {
      if (time > at - RESERVE_IDLE_MS) break;
      lastActive.delete(user);
    }
  }

  function refused(userId: string, whose: string): AppError {
    markActive(userId);
    return tooMany(whose);
  }

  /** Whose limit keeps a request of this user and organization from running now, or null when it can run. */
  function blocked(userId: string, organizationId: string): string | null {
    if (users.of(userId) >= perUser) return 'of yours';
    if (organizations.of(organizationId) >= perOrganization) return 'of this organization';
    if (running >= total) return 'on this server';
    return null;
  }

  /** Whether a request past the total alone starts from the reserve: its user has been idle long enough. */
  function fromReserve(userId: string): boolean {
    const idleSince = lastActive.get(userId);
    return (
      running < total + idleUserReserve &&
      users.of(userId) === 0 &&
      usersWaiting.of(userId) === 0 &&
      (idleSince === undefined || now() - idleSince >= RESERVE_IDLE_MS)
    );
  }

  function start(userId: string, organizationId: string): void {
    users.add(userId, 1);
    organizations.add(organizationId, 1);
    running++;
    lastTurns.set(userId, ++admissions);
  }

  /** Forgets the turn of a user who neither runs nor waits: they come back as one who waited longest. */
  function forgetIfIdle(userId: string): void {
    if (users.of(userId) === 0 && usersWaiting.of(userId) === 0) lastTurns.delete(userId);
  }

  /** Orders waiting requests by who gets a free slot first (negative: a first). */
  function precedence(a: Waiter, b: Waiter): number {
    return (
      users.of(a.userId) - users.of(b.userId) ||
      (lastTurns.get(a.userId) ?? 0) - (lastTurns.get(b.userId) ?? 0) ||
      organizations.of(a.organizationId) - organizations.of(b.organizationId)
    );
  }

  /** The waiting request that can run and goes first; among equals, the earliest. */
  function nextWaiter(): Waiter | undefined {
    let best: Waiter | undefined;
    for (const waiter of waiting) {
      if (blocked(waiter.userId, waiter.organizationId)) continue;
      if (!best || precedence(waiter, best) < 0) best = waiter;
    }
    return best;
  }

  function leaveQueue(waiter: Waiter): void {
    waiting.splice(waiting.indexOf(waiter), 1);
    usersWaiting.add(waiter.userId, -1);
  }

  function finish(userId: string, organizationId: string): void {
    markActive(userId);
    users.add(userId, -1);
    organizations.add(organizationId, -1);
    running--;
    for (let next = nextWaiter(); next; next = nextWaiter()) {
      leaveQueue(next);
      start(next.userId, next.organizationId);
      next.admit();
    }
    forgetIfIdle(userId);
  }

  function waitForSlot(userId: string, organizationId: string, whose: string): Promise<void> {
    if (waitMs <= 0) return Promise.reject(refused(userId, whose));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        userId,
        organizationId,
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        leaveQueue(waiter);
        forgetIfIdle(userId);
        reject(refused(userId, blocked(userId, organizationId) ?? whose));
      }, waitMs);
      waiting.push(waiter);
      usersWaiting.add(userId, 1);
    });
  }

  return {
    async admit({ userId }, organizationId, fn) {
      const whose = blocked(userId, organizationId);
      if (!whose || (whose === 'on this server' && fromReserve(userId))) start(userId, organizationId);
      else await waitForSlot(userId, organizationId, whose);
      try {
        return await fn();
      } finally {
        finish(userId, organizationId);
      }
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}

/**
 * `ums_expensive_requests{state="running"|"waiting"}` in the registry, read at each scrape; for
 * the computed reads' admission, `ums_computed_reads{...}`.
 */
export function registerAdmissionGauge(
  admission: Admission,
  registry: Registry,
  what: 'expensive' | 'computed' = 'expensive',
): void {
  new Gauge({
    name: what === 'expensive' ? 'ums_expensive_requests' : 'ums_computed_reads',
    help:
      what === 'expensive'
        ? 'Expensive requests (cost, large sums and profiles) running and waiting for an admission slot'
        : 'Profiles and sums below the expensive sizes being computed and waiting for their turn',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = admission.load();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}
