import { LRUCache } from 'lru-cache';
import { Gauge, type Registry } from 'prom-client';
import type { AuthContext } from './auth-context.ts';
import { AppError } from './errors.ts';
import { createRecentUse } from './recent-use.ts';

const RETRY_AFTER_S = 1;

/**
 * The one organization key of an admission that limits users (or client addresses) alone: the
 * request gate's, which small readings bodies take too, the password hashes' and the refusals'.
 */
export const ANY_ORGANIZATION = '*';
/**
 * How long a user must have had nothing running, waiting or refused to start from the reserve: far
 * longer than a client takes to ask again after an answer, far shorter than between the requests
 * of a person's page.
 */
export const RESERVE_IDLE_MS = 50;
/** The users remembered as having had an expensive request run to its end (the reserve is theirs), the least recent forgotten first. */
const USERS_SEEN = 10_000;

/**
 * Past the total, the most the waiting requests of busy users rest after a request ended (they rest
 * as long as it ran): a flood whose work never waits for the database would otherwise keep the main
 * thread busy the whole time, one request after another, and everything else waits behind it.
 */
export const REST_AT_TOTAL_MAX_MS = 10;

/** Whether RESERVE_IDLE_MS has passed from `since` to `at`; a clock set back before `since` counts as that long. */
const idleSince = (since: number, at: number) => at - since >= RESERVE_IDLE_MS || at < since;

const tooMany = (what: string, whose: string) =>
  new AppError(429, 'Too many requests', `Too many ${what} ${whose} at once; retry shortly`, {
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
   * How many more than `total` may run, each the request of a user seen before (an expensive
   * request of theirs ran to its end) who arrives after at least RESERVE_IDLE_MS with nothing
   * running, waiting or refused (default 0): such a user's request does not wait for the running
   * ones of users who keep asking. A waiting request never takes the reserve, nor does the first
   * request of a user never seen: a flood of new users would take it in turn, each with a cold
   * request of its own, at the flood's start.
   */
  idleUserReserve?: number;
  /**
   * The clock of RESERVE_IDLE_MS and of rests, in ms (default performance.now). It may be a wall
   * clock: one set back counts as time passed, so no rest lasts longer than the request it follows.
   */
  now?: () => number;
  /** How long a request past a limit waits for a slot before its 429 (0: no wait). */
  waitMs: number;
  /**
   * The most a freed slot rests while the process runs its total and requests wait (default
   * REST_AT_TOTAL_MAX_MS): work whose cost falls on another process (the database) may rest as
   * long as it ran (Infinity), so that it takes half of that process at most.
   */
  maxRestMs?: number;
  /**
   * Among one user's own waiting requests, the newest goes first (default false: the earliest). Under
   * a flood that outlasts its client's timeout, the oldest waiting request is the one whose client
   * has given up or soon will: started first, it is work for nobody, and the newest is the one
   * still waited for. Users still take turns as the order above says.
   */
  newestFirstPerUser?: boolean;
  /** What the 429's text says there are too many of (default 'expensive requests'). */
  what?: string;
  /**
   * Orders users by what their requests have cost lately instead of by turns (default false): a
   * freed slot goes to the waiting request of the user whose requests cost least lately
   * (recent-use.ts: each request's cost, halved every second since), then with the fewest running
   * and waiting. A user who arrives with nothing running or waiting comes back no less used than
   * the least used of those who have (no credit saved up: sixteen new users do not all go before a
   * neighbour who kept asking). Past the total, a request of a user who would go first (nothing of
   * theirs waiting, under their own limit, no more used than any other user with requests running
   * or waiting) starts from the reserve at once.
   */
  leastUsedFirst?: boolean;
}

/**
 * Admission of expensive work (energy cost, large sums and profiles): a request runs once its
 * user, its organization and the process each have a free slot. Past a limit it waits, holding no
 * slot and no database connection, at most `waitMs`, then is refused (429 with Retry-After). A
 * freed slot goes to the waiting request that can use it whose user runs the fewest expensive
 * requests besides it, then whose user has waited longest since their last turn, then whose
 * organization runs the fewest, then the earliest: a user flooding through many organizations
 * takes turns with every other user instead of filling the process first come first served
 * (measured in docs/PERFORMANCE.md, "Fairness"). Work of many steps may hand its slot over between
 * them (`admit`'s `handOver`). Past the total, a request whose user has had nothing running,
 * waiting or refused for RESERVE_IDLE_MS, and one of whose requests has run before, starts at
 * once while the reserve lasts: a neighbour's request does not wait for the flood's running one,
 * and a user who keeps asking never takes it.
 * While the process runs its total and requests wait, the slot a request frees rests as long as it
 * ran (at most REST_AT_TOTAL_MAX_MS) for the users who keep asking: a flood of work that never waits
 * for the database then takes about half the main thread, not all of it, however many users send
 * it. A request of an idle user neither rests nor waits for the reserve.
 * The wait paces a client that asks again at once whatever Retry-After says ("Overload").
 */
export interface Admission {
  /**
   * Runs fn once the caller, the organization and the process have a free slot, else throws 429.
   * The caller checks access first. A request whose `abandoned` signal fires while it waits (its
   * client went away) leaves the queue at once and rejects with the signal's reason.
   * Work of many steps (a tariff comparison's candidates) awaits fn's `handOver` between them: while
   * a request of another user waits, the process's slot goes back to the queue and the work goes on
   * once it is handed the slot again (before any new request of its user, never refused, still
   * counted against its user's and organization's limits). A request of another user then waits
   * for one step, not for the whole work. Once `abandoned` fires, `handOver` rejects with its
   * reason: the work stops at its next step.
   */
  admit<T>(
    auth: Pick<AuthContext, 'userId'>,
    organizationId: string,
    fn: (handOver: () => Promise<void>) => Promise<T>,
    abandoned?: AbortSignal,
    cost?: () => number,
  ): Promise<T>;
  /**
   * As admit, for work that is not one function: resolves once a slot is free, and the slot is held
   * until `released` fires (the request's answer sent or its connection closed). When it fires while
   * the request waits, it leaves the queue and rejects with the signal's reason. `cost`, read when
   * it is released, is what the request cost its user (leastUsedFirst; default: the ms it held).
   */
  hold(
    auth: Pick<AuthContext, 'userId'>,
    organizationId: string,
    released: AbortSignal,
    cost?: () => number,
  ): Promise<void>;
  /** Expensive requests running and waiting for a slot now. */
  load(): { running: number; waiting: number };
}

interface Waiter {
  userId: string;
  organizationId: string;
  /** Its user had nothing running, waiting or refused for RESERVE_IDLE_MS when it arrived: it does not rest. */
  idle: boolean;
  /** Admitted work that handed the process's slot over: it waits for that slot alone. */
  continuing: boolean;
  admit: () => void;
}

/** Counts of requests per key; a key at 0 has no entry. */
function counter() {
  const counts = new Map<string, number>();
  return {
    of: (key: string) => counts.get(key) ?? 0,
    keys: () => counts.keys(),
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
  maxRestMs = REST_AT_TOTAL_MAX_MS,
  newestFirstPerUser = false,
  what = 'expensive requests',
  leastUsedFirst = false,
}: AdmissionLimits): Admission {
  const recentUse = createRecentUse(now);
  const users = counter();
  const usersWaiting = counter();
  const organizations = counter();
  let running = 0;
  /** In order of arrival. */
  const waiting: Waiter[] = [];
  /** The waiting requests that are work handed over. */
  let continuingWaiting = 0;
  /** Per user running or waiting, the number of the admission that last started one of theirs. */
  const lastTurns = new Map<string, number>();
  let admissions = 0;
  /**
   * When each user's last expensive request ended or was refused, oldest first (a user's entry moves
   * to the end), for RESERVE_IDLE_MS: older entries are dropped as they age.
   */
  const lastActive = new Map<string, number>();
  /** The users an expensive request of whom ran to its end: who may be idle. */
  const seen = new LRUCache<string, true>({ max: USERS_SEEN });

  function markActive(userId: string): void {
    const at = now();
    lastActive.delete(userId);
    lastActive.set(userId, at);
    for (const [user, time] of lastActive) {
      if (!idleSince(time, at)) break;
      lastActive.delete(user);
    }
  }

  function refused(userId: string, whose: string): AppError {
    markActive(userId);
    return tooMany(what, whose);
  }

  /**
   * After a request ended while the process ran its total and others waited: from when and how long
   * the waiting requests of busy users rest (REST_AT_TOTAL_MAX_MS).
   */
  let rest = { from: Number.NEGATIVE_INFINITY, ms: 0 };
  let restTimer: ReturnType<typeof setTimeout> | undefined;

  /** The ms left of the rest at `at`: none once it has passed, nor if the clock was set back before its start. */
  function restLeft(at: number): number {
    const elapsed = at - rest.from;
    return elapsed >= 0 && elapsed < rest.ms ? rest.ms - elapsed : 0;
  }

  /**
   * Whose limit keeps a request of this user and organization from running now, or null when it can
   * run; idle: its user was idle when it arrived (a rest does not hold it back).
   */
  function blocked(userId: string, organizationId: string, idle: boolean, continuing = false): string | null {
    if (!continuing && users.of(userId) >= perUser) return 'of yours';
    if (!continuing && organizations.of(organizationId) >= perOrganization) return 'of this organization';
    if (running >= total || (!idle && restLeft(now()) > 0)) return 'on this server';
    return null;
  }

  /** Whether the user, seen before, has had nothing running, waiting or refused for RESERVE_IDLE_MS. */
  function isIdle(userId: string): boolean {
    const activeAt = lastActive.get(userId);
    return (
      seen.has(userId) &&
      users.of(userId) === 0 &&
      usersWaiting.of(userId) === 0 &&
      (activeAt === undefined || idleSince(activeAt, now()))
    );
  }

  /** A request of the user takes one of the process's slots: their turn. */
  function takeSlot(userId: string): void {
    running++;
    lastTurns.set(userId, ++admissions);
  }

  function start(userId: string, organizationId: string): void {
    users.add(userId, 1);
    organizations.add(organizationId, 1);
    takeSlot(userId);
  }

  /**
   * Admitted work of the user hands the process's slot over to the queue, where it waits first among
   * the user's requests, and goes on once dispatched (at once when nothing else can run).
   */
  function continueLater(userId: string, organizationId: string): Promise<void> {
    return new Promise((resolve) => {
      waiting.push({ userId, organizationId, idle: false, continuing: true, admit: resolve });
      continuingWaiting++;
      running--;
      dispatch();
    });
  }

  /** Forgets the turn of a user who neither runs nor waits: they come back as one who waited longest. */
  function forgetIfIdle(userId: string): void {
    if (users.of(userId) === 0 && usersWaiting.of(userId) === 0) lastTurns.delete(userId);
  }

  /** Running and waiting requests of the user. */
  const outstanding = (userId: string) => users.of(userId) + usersWaiting.of(userId);

  /** leastUsedFirst: whether user a goes before user b (negative: a first); `aArriving`: a's request is not counted yet. */
  function lessUsed(a: string, b: string, aArriving = false): number {
    return recentUse.of(a) - recentUse.of(b) || outstanding(a) + (aArriving ? 1 : 0) - outstanding(b);
  }

  /** The users with requests running or waiting (one with both, twice). */
  function* activeUsers(): Generator<string> {
    yield* users.keys();
    yield* usersWaiting.keys();
  }

  /** leastUsedFirst: the user's use raised to the least of those with requests running or waiting. */
  function comeBackLevel(userId: string): void {
    let least = Number.POSITIVE_INFINITY;
    for (const user of activeUsers()) least = Math.min(least, recentUse.of(user));
    if (Number.isFinite(least)) recentUse.raiseTo(userId, least);
  }

  /**
   * leastUsedFirst: whether an arriving request of the user would go before those of every other
   * user with requests running or waiting.
   */
  function wouldGoFirst(userId: string): boolean {
    if (usersWaiting.of(userId) > 0 || users.of(userId) >= perUser) return false;
    for (const other of activeUsers()) if (other !== userId && lessUsed(userId, other, true) > 0) return false;
    return true;
  }

  /** The requests the waiter's user runs besides it (work handed over still counts as running). */
  const runningBesides = (waiter: Waiter) => users.of(waiter.userId) - (waiter.continuing ? 1 : 0);

  /** Orders waiting requests by who gets a free slot first (negative: a first). */
  function precedence(a: Waiter, b: Waiter): number {
    if (leastUsedFirst) return lessUsed(a.userId, b.userId);
    return (
      runningBesides(a) - runningBesides(b) ||
      (lastTurns.get(a.userId) ?? 0) - (lastTurns.get(b.userId) ?? 0) ||
      organizations.of(a.organizationId) - organizations.of(b.organizationId)
    );
  }

  /**
   * The waiting request that can run and goes first; among equals, the earliest (a user's newest,
   * with newestFirstPerUser). A new request of a user who runs something never starts while work
   * handed over waits (not even one of an idle user while a rest holds that work back): work once
   * started ends before its users start more.
   */
  function nextWaiter(): Waiter | undefined {
    let best: Waiter | undefined;
    for (const waiter of waiting) {
      if (continuingWaiting > 0 && !waiter.continuing && users.of(waiter.userId) > 0) continue;
      if (blocked(waiter.userId, waiter.organizationId, waiter.idle, waiter.continuing)) continue;
      const order = best ? precedence(waiter, best) : -1;
      if (order < 0 || (order === 0 && newestFirstPerUser && waiter.userId === best!.userId)) best = waiter;
    }
    return best;
  }

  function leaveQueue(waiter: Waiter): void {
    waiting.splice(waiting.indexOf(waiter), 1);
    if (waiter.continuing) continuingWaiting--;
    else usersWaiting.add(waiter.userId, -1);
  }

  /** Starts the waiting requests that can run now, in precedence; while a rest holds some back, again once it ends. */
  function dispatch(): void {
    const at = now();
    for (let next = nextWaiter(); next; next = nextWaiter()) {
      leaveQueue(next);
      // Work handed over kept its user's and organization's slots.
      if (next.continuing) takeSlot(next.userId);
      else start(next.userId, next.organizationId);
      next.admit();
    }
    if (restLeft(at) > 0) wakeAfterRest();
  }

  /** With a slot free and requests waiting: dispatches again when the rest ends. */
  function wakeAfterRest(): void {
    if (restTimer || running >= total || waiting.length === 0) return;
    restTimer = setTimeout(
      () => {
        restTimer = undefined;
        dispatch();
      },
      Math.max(1, restLeft(now())),
    );
  }

  function finish(userId: string, organizationId: string, ranMs: number, cost: number): void {
    if (leastUsedFirst) recentUse.charge(userId, cost);
    markActive(userId);
    seen.set(userId, true);
    if (running >= total && waiting.length > 0) {
      const at = now();
      rest = { from: at, ms: Math.max(restLeft(at), Math.min(ranMs, maxRestMs)) };
    }
    users.add(userId, -1);
    organizations.add(organizationId, -1);
    running--;
    dispatch();
    forgetIfIdle(userId);
  }

  function waitForSlot(
    userId: string,
    organizationId: string,
    whose: string,
    idle: boolean,
    abandoned?: AbortSignal,
  ): Promise<void> {
    if (abandoned?.aborted) return Promise.reject(abandoned.reason);
    if (waitMs <= 0) return Promise.reject(refused(userId, whose));
    return new Promise((resolve, reject) => {
      const giveUp = (reason: unknown) => {
        clearTimeout(timer);
        abandoned?.removeEventListener('abort', onAbandoned);
        leaveQueue(waiter);
        forgetIfIdle(userId);
        reject(reason);
      };
      const onAbandoned = () => giveUp(abandoned!.reason);
      const waiter: Waiter = {
        userId,
        organizationId,
        idle,
        continuing: false,
        admit: () => {
          clearTimeout(timer);
          abandoned?.removeEventListener('abort', onAbandoned);
          resolve();
        },
      };
      const timer = setTimeout(() => giveUp(refused(userId, blocked(userId, organizationId, idle) ?? whose)), waitMs);
      abandoned?.addEventListener('abort', onAbandoned, { once: true });
      waiting.push(waiter);
      usersWaiting.add(userId, 1);
      if (restLeft(now()) > 0) wakeAfterRest();
    });
  }

  return {
    async admit({ userId }, organizationId, fn, abandoned, cost) {
      // A rest that has ended wakes its waiters by a timer, which a busy event loop runs late: they
      // go before this request.
      if (waiting.length > 0) dispatch();
      if (leastUsedFirst && outstanding(userId) === 0) comeBackLevel(userId);
      const idle = isIdle(userId);
      const whose = blocked(userId, organizationId, idle);
      const mayTakeReserve = idle || (leastUsedFirst && wouldGoFirst(userId));
      const fromReserve = whose === 'on this server' && mayTakeReserve && running < total + idleUserReserve;
      if (!whose || fromReserve) start(userId, organizationId);
      else await waitForSlot(userId, organizationId, whose, idle, abandoned);
      // The ms the work held the process's slot, hand-overs left out.
      let heldMs = 0;
      let since = now();
      const handOver = async () => {
        if (abandoned?.aborted) throw abandoned.reason;
        if (!waiting.some((waiter) => waiter.userId !== userId)) return;
        heldMs += now() - since;
        await continueLater(userId, organizationId);
        since = now();
        if (abandoned?.aborted) throw abandoned.reason;
      };
      try {
        return await fn(handOver);
      } finally {
        const ranMs = heldMs + now() - since;
        finish(userId, organizationId, ranMs, cost?.() ?? ranMs);
      }
    },
    hold(auth, organizationId, released, cost) {
      const untilReleased = new Promise<void>((resolve) =>
        released.addEventListener('abort', () => resolve(), { once: true }),
      );
      return new Promise((admitted, refused) => {
        this.admit(
          auth,
          organizationId,
          () => {
            admitted();
            return untilReleased;
          },
          released,
          cost,
        ).catch(refused);
      });
    },
    load: () => ({ running, waiting: waiting.length }),
  };
}

const GAUGES = {
  expensive: {
    name: 'ums_expensive_requests',
    help: 'Expensive requests (cost, large sums and profiles) running and waiting for an admission slot',
  },
  computed: {
    name: 'ums_computed_reads',
    help: 'Profiles and sums below the expensive sizes being computed and waiting for their turn',
  },
  ingestBodies: {
    name: 'ums_ingest_large_bodies',
    help: 'Large readings bodies on their way in (read, parsed, stored), and waiting to be read',
  },
  ingestParsing: {
    name: 'ums_ingest_parsing',
    help: 'Large readings bodies being parsed in the ingest worker, and waiting for it',
  },
  requests: {
    name: 'ums_requests_in_flight',
    help: 'Requests of users handled and waiting for their turn, but those admitted as expensive work or readings bodies',
  },
  ingestStores: {
    name: 'ums_ingest_stores',
    help: 'Ingests of more than 2,000 readings being stored, and waiting to be',
  },
  pages: {
    name: 'ums_list_pages',
    help: 'Pages of lists being made (until their answer is written) and waiting for their turn',
  },
  largeBodies: {
    name: 'ums_large_json_bodies',
    help: 'JSON bodies over 64 KiB being read and parsed, and waiting for their turn (readings bodies have their own)',
  },
  refusals: {
    name: 'ums_refusals',
    help: 'Refusals of requests without a valid token (401) being answered, and waiting for their turn',
  },
  passwordHashes: {
    name: 'ums_password_hashes',
    help: 'Passwords being hashed or verified (sign-up, sign-in), and waiting for their turn',
  },
  scrapes: {
    name: 'ums_metrics_scrapes',
    help: 'Scrapes of /metrics being rendered, and waiting for their turn',
  },
  writes: {
    name: 'ums_writes',
    help: 'Requests that change something being run (until their answer is written), and waiting for their turn',
  },
  smallIngestStores: {
    name: 'ums_ingest_small_stores',
    help: 'Ingests of up to 2,000 readings being stored, and waiting to be',
  },
} as const;

/**
 * `ums_expensive_requests{state="running"|"waiting"}` in the registry, read at each scrape; for
 * the others, as GAUGES names them.
 */
export function registerAdmissionGauge(
  admission: Admission,
  registry: Registry,
  what: keyof typeof GAUGES = 'expensive',
): void {
  new Gauge({
    ...GAUGES[what],
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = admission.load();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}
