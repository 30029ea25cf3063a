import { AppError } from './errors.ts';

/** What a refusal of a full queue asks the client to wait before it asks again. */
const RETRY_AFTER_S = 1;
/**
 * How far ahead of the last one chosen an organization or user comes back after a pause (ms of
 * work): a quiet one goes before those level with it that keep asking, and a pause buys no more
 * than this (the sleeper credit of Linux's fair scheduler).
 */
export const COME_BACK_AHEAD_MS = 5;
/** Past this many remembered organizations and users, those with nothing running or waiting are forgotten. */
const REMEMBERED = 10_000;

export interface SchedulerLimits {
  /** Work run at once in the process. */
  slots: number;
  /** More work that may start at once beyond `slots`: a request of a quiet organization and user (nothing of theirs runs or waits). */
  reserve: number;
  /** Work one user runs at once, over all the organizations they address. */
  perUser: number;
  /** Work run at once for one organization. */
  perOrganization: number;
  /** Requests waiting in the process at most; beyond, 429 at once. */
  queue: number;
  /** Requests of one user waiting at most; beyond, 429 at once. */
  queuePerUser: number;
  /** The clock the work is timed with, in ms (performance.now when absent). */
  now?: () => number;
}

/** Whose work it is, and the signal that ends its wait: its deadline passed or its client went away. */
export interface Ticket {
  userId: string;
  organizationId: string;
  signal?: AbortSignal | undefined;
}

/**
 * Called by work of many steps between them: rejects with the signal's reason once it has fired;
 * while other work waits, gives the slot back and resolves when the work is chosen again.
 */
export type Step = () => Promise<void>;

export interface FairScheduler {
  /** Runs `work` once the ticket is chosen; 429 when the queue is full, the signal's reason when it fires first. */
  run<T>(ticket: Ticket, work: (step: Step) => Promise<T>): Promise<T>;
  /** As run, for work that is not one function: the slot is held until `released` fires. */
  hold(ticket: Ticket, released: AbortSignal): Promise<void>;
  load(): { running: number; waiting: number };
}

interface Waiter {
  ticket: Ticket;
  /** Its organization and user were quiet when it came: it may start from the reserve. */
  quiet: boolean;
  start: () => void;
}

export const queueFull = (whose: string) =>
  new AppError(429, 'Too many requests', `Too many requests ${whose} waiting; retry shortly`, {
    'retry-after': String(RETRY_AFTER_S),
  });

/** Counts per key; a key at 0 has no entry. */
function counter() {
  const counts = new Map<string, number>();
  return {
    of: (key: string) => counts.get(key) ?? 0,
    add(key: string, step: number) {
      const count = (counts.get(key) ?? 0) + step;
      if (count === 0) counts.delete(key);
      else counts.set(key, count);
    },
  };
}

/**
 * Virtual time per key for start-time fair queuing: what each key's work has taken (ms). A key that
 * comes back after a pause starts COME_BACK_AHEAD_MS ahead of the last key chosen, no further: no
 * more credit is saved up by waiting.
 */
function virtualTime() {
  const served = new Map<string, number>();
  let level = 0;
  return {
    of: (key: string) => served.get(key) ?? level,
    comeBack(key: string) {
      served.set(key, Math.max(served.get(key) ?? Number.NEGATIVE_INFINITY, level - COME_BACK_AHEAD_MS));
    },
    chosen(key: string) {
      level = Math.max(level, served.get(key) ?? level);
    },
    charge(key: string, ms: number, keep: (key: string) => boolean) {
      served.set(key, (served.get(key) ?? level) + ms);
      if (served.size > REMEMBERED) for (const k of served.keys()) if (!keep(k)) served.delete(k);
    },
  };
}

/**
 * Start-time fair queuing by organization, then by user. A free slot goes to the waiting work of
 * the organization whose work has taken the least time, then of its user whose work has taken the
 * least, then the earliest of that user's; an organization or user that comes back after a pause
 * starts a little ahead of the last one chosen (COME_BACK_AHEAD_MS). A request of a quiet organization and user (nothing of
 * theirs runs or waits) starts at once from the reserve when every slot is taken: an organization
 * with nothing queued goes now, however many others flood. Per-user and per-organization caps;
 * bounded queues (429 at once beyond); the ticket's signal ends a wait and is honoured on entry and
 * between steps.
 */
export function createFairScheduler(limits: SchedulerLimits): FairScheduler {
  const now = limits.now ?? (() => performance.now());
  const users = counter();
  const organizations = counter();
  const usersWaiting = counter();
  const organizationsWaiting = counter();
  const organizationTime = virtualTime();
  const userTime = virtualTime();
  /** Waiting work by organization, then user, each user's in order of arrival. */
  const waiting = new Map<string, Map<string, Waiter[]>>();
  let waitingCount = 0;
  let running = 0;

  const active = (key: string, count: ReturnType<typeof counter>, queued: ReturnType<typeof counter>) =>
    count.of(key) + queued.of(key) > 0;
  const organizationActive = (key: string) => active(key, organizations, organizationsWaiting);
  const userActive = (key: string) => active(key, users, usersWaiting);

  const withinCaps = ({ userId, organizationId }: Ticket) =>
    users.of(userId) < limits.perUser && organizations.of(organizationId) < limits.perOrganization;

  /** The organization's waiting work chosen next: the head of its user's queue whose work has taken least, within the caps. */
  function nextOfOrganization(byUser: Map<string, Waiter[]>, quietOnly: boolean): Waiter | undefined {
    let best: Waiter | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const [userId, queue] of byUser) {
      const served = userTime.of(userId);
      const head = queue[0]!;
      if (served < least && withinCaps(head.ticket) && (head.quiet || !quietOnly)) [best, least] = [head, served];
    }
    return best;
  }

  /**
   * The waiting work chosen next, or undefined when none is within its caps: of the organization
   * whose work has taken least, among equals the one running least (one that comes back goes before
   * those level with it whose work runs).
   */
  function next(quietOnly: boolean): Waiter | undefined {
    let best: Waiter | undefined;
    let least = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const [organizationId, byUser] of waiting) {
      const rank = [organizationTime.of(organizationId), organizations.of(organizationId)];
      if (rank[0]! > least[0]! || (rank[0] === least[0] && rank[1]! >= least[1]!)) continue;
      const chosen = nextOfOrganization(byUser, quietOnly);
      if (chosen) [best, least] = [chosen, rank];
    }
    return best;
  }

  /** Whether the ticket's organization and user are quiet: nothing of theirs runs or waits. */
  const quiet = ({ userId, organizationId }: Ticket) => !organizationActive(organizationId) && !userActive(userId);

  function enqueue(waiter: Waiter, first = false): void {
    const { userId, organizationId } = waiter.ticket;
    if (!organizationActive(organizationId)) organizationTime.comeBack(organizationId);
    if (!userActive(userId)) userTime.comeBack(userId);
    const byUser = waiting.get(organizationId) ?? new Map<string, Waiter[]>();
    waiting.set(organizationId, byUser);
    const queue = byUser.get(userId) ?? [];
    byUser.set(userId, queue);
    if (first) queue.unshift(waiter);
    else queue.push(waiter);
    usersWaiting.add(userId, 1);
    organizationsWaiting.add(organizationId, 1);
    waitingCount++;
  }

  function dequeue(waiter: Waiter): void {
    const { userId, organizationId } = waiter.ticket;
    const byUser = waiting.get(organizationId)!;
    const queue = byUser.get(userId)!;
    queue.splice(queue.indexOf(waiter), 1);
    if (queue.length === 0) byUser.delete(userId);
    if (byUser.size === 0) waiting.delete(organizationId);
    usersWaiting.add(userId, -1);
    organizationsWaiting.add(organizationId, -1);
    waitingCount--;
  }

  function begin({ userId, organizationId }: Ticket): number {
    if (!organizationActive(organizationId)) organizationTime.comeBack(organizationId);
    if (!userActive(userId)) userTime.comeBack(userId);
    organizationTime.chosen(organizationId);
    userTime.chosen(userId);
    users.add(userId, 1);
    organizations.add(organizationId, 1);
    running++;
    return now();
  }

  function end({ userId, organizationId }: Ticket, since: number): void {
    users.add(userId, -1);
    organizations.add(organizationId, -1);
    running--;
    // At least a millisecond a turn: work that takes no time still takes its turn.
    const ms = Math.max(1, now() - since);
    organizationTime.charge(organizationId, ms, organizationActive);
    userTime.charge(userId, ms, userActive);
    dispatch();
  }

  /** Starts waiting work while slots are free, and quiet work while the reserve lasts. */
  function dispatch(): void {
    for (;;) {
      const quietOnly = running >= limits.slots;
      const chosen = running < limits.slots + limits.reserve ? next(quietOnly) : undefined;
      if (!chosen) return;
      dequeue(chosen);
      chosen.start();
    }
  }

  /** Resolves with the time the ticket's work began, once it is chosen. */
  function admitted(ticket: Ticket, { first = false, quiet = false } = {}): Promise<number> {
    const { signal } = ticket;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        dequeue(waiter);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        ticket,
        quiet,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(begin(ticket));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      enqueue(waiter, first);
      dispatch();
    });
  }

  function enter(ticket: Ticket): Promise<number> {
    if (ticket.signal?.aborted) return Promise.reject(ticket.signal.reason);
    // With a slot free, whatever waits is held back by its caps.
    const isQuiet = quiet(ticket);
    const free = running < limits.slots;
    const reserved = running < limits.slots + limits.reserve && isQuiet;
    if (withinCaps(ticket) && (free || reserved)) return Promise.resolve(begin(ticket));
    if (waitingCount >= limits.queue) return Promise.reject(queueFull('on this server'));
    if (usersWaiting.of(ticket.userId) >= limits.queuePerUser) return Promise.reject(queueFull('of yours'));
    return admitted(ticket, { quiet: isQuiet });
  }

  async function run<T>(ticket: Ticket, work: (step: Step) => Promise<T>): Promise<T> {
    let since: number | undefined = await enter(ticket);
    const step: Step = async () => {
      if (ticket.signal?.aborted) throw ticket.signal.reason;
      if (waitingCount === 0) return;
      end(ticket, since!);
      since = undefined;
      since = await admitted(ticket, { first: true });
    };
    try {
      return await work(step);
    } finally {
      if (since !== undefined) end(ticket, since);
    }
  }

  return {
    run,
    hold(ticket, released) {
      if (released.aborted) return Promise.reject(released.reason);
      const untilReleased = new Promise<void>((resolve) => released.addEventListener('abort', () => resolve()));
      return new Promise((resolve, reject) => {
        run({ ...ticket, signal: AbortSignal.any([released, ...(ticket.signal ? [ticket.signal] : [])]) }, () => {
          resolve();
          return untilReleased;
        }).catch(reject);
      });
    },
    load: () => ({ running, waiting: waitingCount }),
  };
}
