/** Past this many users remembered, those neither waiting nor ahead of the others are forgotten. */
const USERS_REMEMBERED = 1024;
/**
 * How far behind the last user given a turn a user who was idle comes back (ms of steps): the few
 * steps of a bill asked now and then run one a round, not each behind a step of every user who
 * keeps asking. Bounded, so that a pause never buys more than this (sleeper credit, as Linux's
 * fair scheduler gives a task that wakes).
 */
export const COME_BACK_AHEAD_MS = 5;

/**
 * Turns of the main thread for the steps of expensive work that never wait for anything (a bill
 * priced from months kept in memory, a profile's JSON written, a year's answer made): each step
 * takes a turn before it runs, and a turn is given once per round of the event loop, so that what
 * the loop has to do between two steps (answers from the database, new requests, other users'
 * short work) waits for one step at most, not for every step queued.
 *
 * Among the users waiting, the turn goes to the one whose steps have taken the least time
 * (start-time fair queuing): a user who asks one thing now and then goes before the queued steps
 * of a user who keeps asking, however many organizations or connections the latter asks through.
 * A user who was idle comes back COME_BACK_AHEAD_MS behind the last user given a turn, and no
 * further: credit for a pause is bounded. `now` is the clock steps are timed with (ms).
 */
export function createCpuTurns(now: () => number = () => performance.now()) {
  /** The steps waiting for a turn, by user, oldest first, each with the time it is charged beyond its own. */
  const waiting = new Map<string, { start: () => void; aroundMs: number }[]>();
  /** Per user, the time (ms) their steps have taken, counted from a common start (virtual time). */
  const served = new Map<string, number>();
  /** The virtual time of the last user given a turn: a user who was idle comes back COME_BACK_AHEAD_MS behind it. */
  let level = 0;
  let roundScheduled = false;
  /** From a turn given until its step has run: no other turn is scheduled meanwhile. */
  let stepRunning = false;

  function scheduleRound(): void {
    if (roundScheduled || stepRunning || waiting.size === 0) return;
    roundScheduled = true;
    // An immediate set while the loop runs its immediates runs in its next round.
    setImmediate(giveTurn);
  }

  function leastServedWaiting(): string | undefined {
    let chosen: string | undefined;
    let least = Number.POSITIVE_INFINITY;
    for (const user of waiting.keys()) {
      const time = served.get(user) ?? level;
      if (time < least) [chosen, least] = [user, time];
    }
    return chosen;
  }

  function forgetIdleUsers(): void {
    if (served.size <= USERS_REMEMBERED) return;
    for (const [user, time] of served) if (!waiting.has(user) && time <= level) served.delete(user);
  }

  function giveTurn(): void {
    roundScheduled = false;
    const user = leastServedWaiting();
    if (user === undefined) return;
    const steps = waiting.get(user)!;
    const { start, aroundMs } = steps.shift()!;
    if (steps.length === 0) waiting.delete(user);
    level = served.get(user) ?? level;
    const began = now();
    stepRunning = true;
    start();
    // Runs right after the step's code that the turn let go on (up to its next await): the next
    // turn comes after what the step queued for the loop.
    queueMicrotask(() => {
      served.set(user, (served.get(user) ?? level) + (now() - began) + aroundMs);
      stepRunning = false;
      forgetIdleUsers();
      scheduleRound();
    });
  }

  return {
    /**
     * Resolves when the user's step may run: run it at once, without waiting for anything in
     * between. `aroundMs` is charged to the user besides the step's own time: the main thread's
     * work around a step that is the whole of its request (reading the request, writing the answer).
     */
    take(user: string, aroundMs = 0): Promise<void> {
      return new Promise((resolve) => {
        if (!waiting.has(user))
          served.set(user, Math.max(served.get(user) ?? Number.NEGATIVE_INFINITY, level - COME_BACK_AHEAD_MS));
        const step = { start: resolve, aroundMs };
        const steps = waiting.get(user);
        if (steps) steps.push(step);
        else waiting.set(user, [step]);
        scheduleRound();
      });
    },
  };
}

export type CpuTurns = ReturnType<typeof createCpuTurns>;
