import { AppError } from './errors.ts';

/** What a refusal of a full queue asks the client to wait before it asks again. */
const RETRY_AFTER_S = 1;
/**
 * How far ahead of the last one chosen an organization or user comes back after a pause (ms of
 * work): one that comes back goes before those level with it that keep asking, and a pause buys no more
 * than this (the sleeper credit of Linux's fair scheduler).
 */
export const COME_BACK_AHEAD_MS = 5;
/** Past this many remembered organizations and users, those with nothing running or waiting are forgotten. */
const REMEMBERED = 10_000;

export interface SchedulerLimits {
  /** Work run at once in the process. */
  slots: number;
  /** More work that may start at once beyond `slots`: a request that would be chosen before all waiting work. */
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
  /** As run, for work that is not one function: resolves, once chosen, with the release of its slot (idempotent). */
  hold(ticket: Ticket): Promise<() => void>;
  /**
   * Takes a slot at once when one is free within the caps, and returns its release (idempotent);
   * undefined when the ticket would have to wait. The ticket's signal is not read: nothing waits.
   */
  holdNow(ticket: Ticket): (() => void) | undefined;
  load(): { running: number; waiting: number };
}

interface Waiter {
  ticket: Ticket;
  /** It would have been chosen before all waiting work when it came: it may start from the reserve. */
  first: boolean;
  start: (fromReserve: boolean) => void;
}

export const queueFull = (whose: string) =>
  new AppError(429, 'Too many requests', `Too many requests ${whose} waiting; retry shortly`, {
    headers: { 'retry-after': String(RETRY_AFTER_S) },
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
export function virtualTime() {
  const served = new Map<string, number>();
  let level = 0;
  return {
    of: (key: string) => served.get(key) ?? level,
    /** The key's time were it to come back now. */
    comingBack: (key: string) => Math.max(served.get(key) ?? Number.NEGATIVE_INFINITY, level - COME_BACK_AHEAD_MS),
    comeBack(key: string) {
      served.set(key, Math.max(served.get(key) ?? Number.NEGATIVE_INFINITY, level - COME_BACK_AHEAD_MS));
    },
    /** The time of the last key chosen. */
    level: () => level,
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
 * starts a little ahead of the last one chosen (COME_BACK_AHEAD_MS). A request that would be chosen
 * before all waiting work (goesFirst) starts at once from the reserve when every slot is taken: an
 * organization with nothing queued goes now, however many others flood. Per-user and per-organization caps;
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
  /** Work running in the slots, and from the reserve. */
  let running = 0;
  let reserved = 0;

  const active = (key: string, count: ReturnType<typeof counter>, queued: ReturnType<typeof counter>) =>
    count.of(key) + queued.of(key) > 0;
  const organizationActive = (key: string) => active(key, organizations, organizationsWaiting);
  const userActive = (key: string) => active(key, users, usersWaiting);

  const withinCaps = ({ userId, organizationId }: Ticket) =>
    users.of(userId) < limits.perUser && organizations.of(organizationId) < limits.perOrganization;

  /** The organization's waiting work chosen next: the head of its user's queue whose work has taken least, within the caps. */
  function nextOfOrganization(byUser: Map<string, Waiter[]>, firstOnly: boolean): Waiter | undefined {
    let best: Waiter | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const [userId, queue] of byUser) {
      const served = userTime.of(userId);
      const head = queue[0]!;
      if (served < least && withinCaps(head.ticket) && (head.first || !firstOnly)) [best, least] = [head, served];
    }
    return best;
  }

  /**
   * The waiting work chosen next, or undefined when none is within its caps: of the organization
   * whose work has taken least, among equals the one running least (one that comes back goes before
   * those level with it whose work runs).
   */
  function next(firstOnly: boolean): Waiter | undefined {
    let best: Waiter | undefined;
    let least = [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY];
    for (const [organizationId, byUser] of waiting) {
      const rank = [organizationTime.of(organizationId), organizations.of(organizationId)];
      if (rank[0]! > least[0]! || (rank[0] === least[0] && rank[1]! >= least[1]!)) continue;
      const chosen = nextOfOrganization(byUser, firstOnly);
      if (chosen) [best, least] = [chosen, rank];
    }
    return best;
  }

  /**
   * Whether a request of the ticket would be chosen before all waiting work: nothing of its
   * organization or user waits, its organization's work has taken no more time than the last one
   * chosen (less by COME_BACK_AHEAD_MS while some of it runs), nor than any organization's with work
   * waiting. A flood always has work waiting or has taken more; a neighbour's second request, while
   * its first runs, has not.
   */
  function goesFirst({ userId, organizationId }: Ticket): boolean {
    if (organizationsWaiting.of(organizationId) > 0 || usersWaiting.of(userId) > 0) return false;
    // Work of its own running, it must be as far behind the last one chosen as one coming back is.
    const busy = organizationActive(organizationId);
    const served = busy ? organizationTime.of(organizationId) : organizationTime.comingBack(organizationId);
    if (served > organizationTime.level() - (busy ? COME_BACK_AHEAD_MS : 0)) return false;
    for (const other of waiting.keys()) if (organizationTime.of(other) < served) return false;
    return true;
  }

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

  /** What a piece of work that began holds: since when, and whether it came from the reserve. */
  interface Started {
    since: number;
    fromReserve: boolean;
  }

  function begin({ userId, organizationId }: Ticket, fromReserve: boolean): Started {
    if (!organizationActive(organizationId)) organizationTime.comeBack(organizationId);
    if (!userActive(userId)) userTime.comeBack(userId);
    organizationTime.chosen(organizationId);
    userTime.chosen(userId);
    // A millisecond at once: work that has begun counts before it ends, and work that takes no time
    // still takes its turn.
    organizationTime.charge(organizationId, 1, organizationActive);
    userTime.charge(userId, 1, userActive);
    users.add(userId, 1);
    organizations.add(organizationId, 1);
    if (fromReserve) reserved++;
    else running++;
    return { since: now(), fromReserve };
  }

  function end({ userId, organizationId }: Ticket, { since, fromReserve }: Started): void {
    users.add(userId, -1);
    organizations.add(organizationId, -1);
    if (fromReserve) reserved--;
    else running--;
    const ms = Math.max(0, now() - since - 1);
    organizationTime.charge(organizationId, ms, organizationActive);
    userTime.charge(userId, ms, userActive);
    dispatch();
  }

  /** Starts waiting work while slots are free, and work that came as goesFirst while the reserve lasts. */
  function dispatch(): void {
    for (;;) {
      const fromReserve = running >= limits.slots;
      const chosen = !fromReserve || reserved < limits.reserve ? next(fromReserve) : undefined;
      if (!chosen) return;
      dequeue(chosen);
      chosen.start(fromReserve);
    }
  }

  /** Resolves with what the ticket's work holds once it is chosen. */
  function admitted(ticket: Ticket, { inFront = false, first = false } = {}): Promise<Started> {
    const { signal } = ticket;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        dequeue(waiter);
        reject(signal!.reason);
      };
      const waiter: Waiter = {
        ticket,
        first,
        start: (fromReserve) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(begin(ticket, fromReserve));
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      enqueue(waiter, inFront);
      dispatch();
    });
  }

  function holdNow(ticket: Ticket): (() => void) | undefined {
    if (!withinCaps(ticket) || running >= limits.slots) return undefined;
    const started = begin(ticket, false);
    let held = true;
    return () => {
      if (held) end(ticket, started);
      held = false;
    };
  }

  function enter(ticket: Ticket): Promise<Started> {
    if (ticket.signal?.aborted) return Promise.reject(ticket.signal.reason);
    // With a slot free, whatever waits is held back by its caps.
    const first = goesFirst(ticket);
    if (withinCaps(ticket) && running < limits.slots) return Promise.resolve(begin(ticket, false));
    if (withinCaps(ticket) && first && reserved < limits.reserve) return Promise.resolve(begin(ticket, true));
    if (waitingCount >= limits.queue) return Promise.reject(queueFull('on this server'));
    if (usersWaiting.of(ticket.userId) >= limits.queuePerUser) return Promise.reject(queueFull('of yours'));
    return admitted(ticket, { first });
  }

  async function run<T>(ticket: Ticket, work: (step: Step) => Promise<T>): Promise<T> {
    let started: Started | undefined = await enter(ticket);
    const step: Step = async () => {
      if (ticket.signal?.aborted) throw ticket.signal.reason;
      if (waitingCount === 0) return;
      end(ticket, started!);
      started = undefined;
      started = await admitted(ticket, { inFront: true });
    };
    try {
      return await work(step);
    } finally {
      if (started !== undefined) end(ticket, started);
    }
  }

  return {
    run,
    holdNow,
    hold(ticket) {
      if (ticket.signal?.aborted) return Promise.reject(ticket.signal.reason);
      const release = holdNow(ticket);
      if (release) return Promise.resolve(release);
      // While it waits, the ticket's signal ends the wait (a request's deadline fires when its
      // connection closes too); once chosen, the slot is held until the release is called.
      return new Promise((resolve, reject) => {
        run(
          ticket,
          () =>
            new Promise<void>((released) => {
              let held = true;
              resolve(() => {
                if (held) released();
                held = false;
              });
            }),
        ).catch(reject);
      });
    },
    load: () => ({ running: running + reserved, waiting: waitingCount }),
  };
}
