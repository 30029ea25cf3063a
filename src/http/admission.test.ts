import { describe, expect, it } from 'vitest';
import { rejection } from '../../test/helpers/rejection.ts';
import { createAdmission, RESERVE_IDLE_MS, REST_AT_TOTAL_MAX_MS } from './admission.ts';

function deferred<T = string>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A clock that does not move, for tests of the order of turns: a request runs no time, so a freed
 * slot never rests and is handed over at once, whatever the machine's load.
 */
const STILL = () => 0;

const caller = { userId: 'user-a' };
const otherCaller = { userId: 'user-b' };

/** One slot (and idleUserReserve more) on a clock the test moves, with users it has seen finish a request, idle since. */
async function oneSlotWithUsersSeen(
  { waitMs, idleUserReserve = 0, maxRestMs }: { waitMs: number; idleUserReserve?: number; maxRestMs?: number },
  ...seenUsers: { userId: string }[]
) {
  const clock = { time: 1_000 };
  const admission = createAdmission({
    perOrganization: 4,
    perUser: 8,
    total: 1,
    idleUserReserve,
    waitMs,
    maxRestMs,
    now: () => clock.time,
  });
  for (const user of seenUsers) await admission.admit(user, 'org-z', async () => 'seen');
  clock.time += RESERVE_IDLE_MS;
  return { clock, admission };
}

describe('admission of expensive work per organization', () => {
  it('runs up to the limit at once per key and refuses more with 429 and Retry-After once no slot frees in time', async () => {
    const admission = createAdmission({ perOrganization: 2, perUser: 100, waitMs: 20 });
    const [first, second] = [deferred(), deferred()];
    const running = [
      admission.admit(caller, 'org-a', () => first.promise),
      admission.admit(caller, 'org-a', () => second.promise),
    ];
    let ran = false;
    const refused = await rejection(
      admission.admit(caller, 'org-a', async () => {
        ran = true;
        return 'third';
      }),
    );
    expect(ran).toBe(false);
    expect(refused.statusCode).toBe(429);
    expect(refused.envelopeMessage).toBe('Too many requests');
    expect(refused.detail).toBe('Too many expensive requests of this organization at once; retry shortly');
    expect(refused.headers).toEqual({ 'retry-after': '1' });

    first.resolve('first');
    second.resolve('second');
    expect(await Promise.all(running)).toEqual(['first', 'second']);
  });

  it('admits another key while one is full', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 20 });
    const held = deferred();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    expect(await admission.admit(caller, 'org-b', async () => 'other')).toBe('other');
    await rejection(admission.admit(caller, 'org-a', async () => 'refused'));
    held.resolve('held');
    expect(await running).toBe('held');
  });

  it('frees the slot when the work ends, resolved or failed', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 20 });
    const failing = deferred();
    const running = admission.admit(caller, 'org-a', () => failing.promise);
    failing.reject(new Error('query failed'));
    await expect(running).rejects.toThrow('query failed');
    expect(await admission.admit(caller, 'org-a', async () => 'after failure')).toBe('after failure');
    expect(await admission.admit(caller, 'org-a', async () => 'after success')).toBe('after success');
    await expect(
      admission.admit(caller, 'org-a', () => {
        throw new Error('thrown at once');
      }),
    ).rejects.toThrow('thrown at once');
    expect(await admission.admit(caller, 'org-a', async () => 'after a synchronous throw')).toBe(
      'after a synchronous throw',
    );
  });

  it('lets a request past the limit wait for a slot, handed over in order of arrival', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 60_000 });
    const held = deferred();
    const order: string[] = [];
    const first = admission.admit(caller, 'org-a', async () => {
      await held.promise;
      order.push('first');
      return 'first';
    });
    const second = admission.admit(caller, 'org-a', async () => {
      order.push('second');
      return 'second';
    });
    const third = admission.admit(caller, 'org-a', async () => {
      order.push('third');
      return 'third';
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual([]);
    held.resolve('first');
    expect(await Promise.all([first, second, third])).toEqual(['first', 'second', 'third']);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(await admission.admit(caller, 'org-a', async () => 'free again')).toBe('free again');
  });

  it('refuses a request that waited in vain without taking a slot from those after it', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 20 });
    const held = deferred();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    const refused = await rejection(admission.admit(caller, 'org-a', async () => 'too late'));
    expect(refused.statusCode).toBe(429);
    held.resolve('held');
    expect(await running).toBe('held');
    expect(await admission.admit(caller, 'org-a', async () => 'next')).toBe('next');
    const [a, b] = [deferred(), deferred()];
    const both = [admission.admit(caller, 'org-a', () => a.promise), admission.admit(caller, 'org-a', () => b.promise)];
    a.resolve('a');
    b.resolve('b');
    expect(await Promise.all(both)).toEqual(['a', 'b']);
  });
});

describe('requests abandoned while they wait', () => {
  it('leaves the queue when its signal fires, with its reason, and the slot goes to the next', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 60_000 });
    const held = deferred();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    const clientGone = new AbortController();
    let ran = false;
    const abandoned = admission.admit(
      caller,
      'org-a',
      async () => {
        ran = true;
        return 'abandoned';
      },
      clientGone.signal,
    );
    const next = admission.admit(caller, 'org-a', async () => 'next');
    expect(admission.load()).toEqual({ running: 1, waiting: 2 });
    const reason = new Error('the client went away');
    clientGone.abort(reason);
    await expect(abandoned).rejects.toBe(reason);
    expect(admission.load()).toEqual({ running: 1, waiting: 1 });
    held.resolve('held');
    expect(await Promise.all([running, next])).toEqual(['held', 'next']);
    expect(ran).toBe(false);
    expect(admission.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('does not wait at all for a request abandoned before it asks, and a signal that fires after the start changes nothing', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 100, waitMs: 60_000 });
    const held = deferred();
    const started = new AbortController();
    const running = admission.admit(caller, 'org-a', () => held.promise, started.signal);
    started.abort(new Error('too late to matter'));
    const gone = new AbortController();
    const reason = new Error('gone already');
    gone.abort(reason);
    await expect(admission.admit(caller, 'org-a', async () => 'never', gone.signal)).rejects.toBe(reason);
    expect(admission.load()).toEqual({ running: 1, waiting: 0 });
    held.resolve('held');
    expect(await running).toBe('held');
  });
});

describe('admission of expensive work per user', () => {
  it('refuses a user past their limit in any organization, and admits another user there', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 2, waitMs: 20 });
    const [a, b] = [deferred(), deferred()];
    const running = [
      admission.admit(caller, 'org-a', () => a.promise),
      admission.admit(caller, 'org-b', () => b.promise),
    ];
    const refused = await rejection(admission.admit(caller, 'org-c', async () => 'third'));
    expect(refused.statusCode).toBe(429);
    expect(refused.detail).toBe('Too many expensive requests of yours at once; retry shortly');
    expect(refused.headers).toEqual({ 'retry-after': '1' });
    expect(await admission.admit(otherCaller, 'org-c', async () => 'other user')).toBe('other user');

    a.resolve('a');
    b.resolve('b');
    expect(await Promise.all(running)).toEqual(['a', 'b']);
    expect(await admission.admit(caller, 'org-c', async () => 'free again')).toBe('free again');
  });

  it('gives the user slot back when the organization refuses, so the user can work elsewhere', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 1, waitMs: 20 });
    const held = deferred();
    const running = admission.admit(otherCaller, 'org-a', () => held.promise);
    const refused = await rejection(admission.admit(caller, 'org-a', async () => 'refused'));
    expect(refused.detail).toBe('Too many expensive requests of this organization at once; retry shortly');
    expect(await admission.admit(caller, 'org-b', async () => 'elsewhere')).toBe('elsewhere');
    held.resolve('held');
    expect(await running).toBe('held');
  });

  it('hands a user slot over to the user request waiting for it, in order of arrival', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 1, waitMs: 60_000 });
    const held = deferred();
    const first = admission.admit(caller, 'org-a', () => held.promise);
    const second = admission.admit(caller, 'org-b', async () => 'second');
    held.resolve('first');
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
  });
});

describe('admission of expensive work over the process', () => {
  it('refuses with 429 once the process runs its total, whoever asks, and admits again when a slot frees', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 8, total: 2, waitMs: 20 });
    const [a, b] = [deferred(), deferred()];
    const running = [
      admission.admit(caller, 'org-a', () => a.promise),
      admission.admit(caller, 'org-b', () => b.promise),
    ];
    const refused = await rejection(admission.admit(otherCaller, 'org-c', async () => 'third'));
    expect(refused.statusCode).toBe(429);
    expect(refused.detail).toBe('Too many expensive requests on this server at once; retry shortly');
    expect(refused.headers).toEqual({ 'retry-after': '1' });
    a.resolve('a');
    expect(await running[0]).toBe('a');
    expect(await admission.admit(otherCaller, 'org-c', async () => 'after a slot freed')).toBe('after a slot freed');
    b.resolve('b');
    expect(await running[1]).toBe('b');
  });

  /** Runs that record their start and hold their slot until let go. */
  function startRecorder() {
    const started: string[] = [];
    const finish = deferred();
    const run = (
      admission: ReturnType<typeof createAdmission>,
      who: { userId: string },
      organization: string,
      name: string,
    ) =>
      admission.admit(who, organization, async () => {
        started.push(name);
        await finish.promise;
        return name;
      });
    /** Resolves once the run named has started. */
    const startOf = async (name: string) => {
      while (!started.includes(name)) await new Promise((resolve) => setImmediate(resolve));
    };
    return { started, run, startOf, finishAll: () => finish.resolve('') };
  }

  it('hands a freed slot to the waiting user who runs the fewest, before earlier requests of a user who runs more', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 8, total: 2, waitMs: 60_000, now: STILL });
    const [a, b] = [deferred(), deferred()];
    const { started, run, startOf, finishAll } = startRecorder();
    const held = [admission.admit(caller, 'org-a', () => a.promise), admission.admit(caller, 'org-b', () => b.promise)];
    const waiting = [
      run(admission, caller, 'org-c', 'flooder 1'),
      run(admission, caller, 'org-d', 'flooder 2'),
      run(admission, otherCaller, 'org-e', 'neighbour'),
    ];
    a.resolve('a');
    await held[0];
    // One slot freed: the neighbour, who runs nothing, goes before the flooder, who runs one.
    await startOf('neighbour');
    expect(started).toEqual(['neighbour']);
    b.resolve('b');
    await held[1];
    await startOf('flooder 1');
    expect(started).toEqual(['neighbour', 'flooder 1']);
    finishAll();
    expect(await Promise.all(waiting)).toEqual(['flooder 1', 'flooder 2', 'neighbour']);
    expect(started).toEqual(['neighbour', 'flooder 1', 'flooder 2']);
  });

  it('with one slot, hands it to users in turn: a user whose request just ended goes after one who waited', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 8, total: 1, waitMs: 60_000, now: STILL });
    const held = deferred();
    const { started, run, startOf, finishAll } = startRecorder();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    const waiting = [
      run(admission, caller, 'org-b', 'flooder 1'),
      run(admission, caller, 'org-c', 'flooder 2'),
      run(admission, otherCaller, 'org-d', 'neighbour 1'),
      run(admission, otherCaller, 'org-d', 'neighbour 2'),
    ];
    held.resolve('held');
    await running;
    // Both users run nothing when the slot frees: the neighbour, who has not had a turn, goes first.
    await startOf('neighbour 1');
    expect(started).toEqual(['neighbour 1']);
    finishAll();
    expect(await Promise.all(waiting)).toEqual(['flooder 1', 'flooder 2', 'neighbour 1', 'neighbour 2']);
    expect(started).toEqual(['neighbour 1', 'flooder 1', 'neighbour 2', 'flooder 2']);
  });

  it('among one user’s waiting requests, hands a freed slot to the organization that runs the fewest', async () => {
    const admission = createAdmission({ perOrganization: 4, perUser: 8, total: 2, waitMs: 60_000, now: STILL });
    const [a, b] = [deferred(), deferred()];
    const { started, run, startOf, finishAll } = startRecorder();
    const held = [admission.admit(caller, 'org-a', () => a.promise), admission.admit(caller, 'org-a', () => b.promise)];
    const waiting = [run(admission, caller, 'org-a', 'org-a'), run(admission, caller, 'org-b', 'org-b')];
    a.resolve('a');
    await held[0];
    await startOf('org-b');
    expect(started).toEqual(['org-b']);
    b.resolve('b');
    await held[1];
    await startOf('org-a');
    finishAll();
    expect(await Promise.all(waiting)).toEqual(['org-a', 'org-b']);
    expect(started).toEqual(['org-b', 'org-a']);
  });

  it('with newestFirstPerUser, hands a freed slot to a user’s newest waiting request, users still in turn', async () => {
    const admission = createAdmission({
      perOrganization: 8,
      perUser: 8,
      total: 1,
      waitMs: 60_000,
      now: STILL,
      newestFirstPerUser: true,
    });
    const held = deferred();
    const { started, run, finishAll } = startRecorder();
    const running = admission.admit(otherCaller, 'org-d', () => held.promise);
    const waiting = [
      run(admission, caller, 'org-a', 'body 1'),
      run(admission, caller, 'org-a', 'body 2'),
      run(admission, caller, 'org-b', 'body 3'),
      run(admission, otherCaller, 'org-d', 'neighbour'),
    ];
    held.resolve('held');
    await running;
    while (started.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(['body 3']);
    finishAll();
    expect(await Promise.all(waiting)).toEqual(['body 1', 'body 2', 'body 3', 'neighbour']);
    expect(started).toEqual(['body 3', 'neighbour', 'body 2', 'body 1']);
  });

  /** One slot and a reserve of one on a clock the test moves, with users seen to finish a request, idle since. */
  const reserveWithUsersSeen = (waitMs: number, ...seenUsers: { userId: string }[]) =>
    oneSlotWithUsersSeen({ waitMs, idleUserReserve: 1 }, ...seenUsers);

  it('past the total, starts the first request of a user seen before who runs none while the reserve lasts', async () => {
    const [thirdCaller, fourthCaller] = [{ userId: 'user-c' }, { userId: 'user-d' }];
    const { admission } = await reserveWithUsersSeen(20, otherCaller, thirdCaller, fourthCaller);
    const [flood, neighbour] = [deferred(), deferred()];
    const running = [
      admission.admit(caller, 'org-a', () => flood.promise),
      // The total is reached; this user runs none: the reserve starts it at once.
      admission.admit(otherCaller, 'org-b', () => neighbour.promise),
    ];
    expect(admission.load()).toEqual({ running: 2, waiting: 0 });
    // The flooding user runs one already: the reserve is not theirs.
    const flooderRefused = await rejection(admission.admit(caller, 'org-c', async () => 'second of the flooder'));
    expect(flooderRefused.detail).toBe('Too many expensive requests on this server at once; retry shortly');
    // The reserve is used up: a third user who runs none waits like everyone else.
    const thirdRefused = await rejection(admission.admit(thirdCaller, 'org-d', async () => 'third user'));
    expect(thirdRefused.detail).toBe('Too many expensive requests on this server at once; retry shortly');
    flood.resolve('flood');
    expect(await running[0]).toBe('flood');
    // The neighbour's runs, within the total now: a fourth user, never refused, takes the reserve.
    expect(await admission.admit(fourthCaller, 'org-e', async () => 'fourth user')).toBe('fourth user');
    neighbour.resolve('neighbour');
    expect(await running[1]).toBe('neighbour');
    expect(await admission.admit(caller, 'org-c', async () => 'flooder again')).toBe('flooder again');
    expect(admission.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps the reserve from a user never seen to finish a request: a flood of new users takes it in no turn', async () => {
    const { admission } = await reserveWithUsersSeen(20, otherCaller);
    const flood = deferred();
    const running = admission.admit(caller, 'org-a', () => flood.promise);
    // New users, each running none, wait within the total like everyone else.
    for (const userId of ['new-1', 'new-2']) {
      const refused = await rejection(admission.admit({ userId }, 'org-b', async () => 'new user'));
      expect(refused.detail).toBe('Too many expensive requests on this server at once; retry shortly');
    }
    // The reserve is still there for the user seen before.
    expect(await admission.admit(otherCaller, 'org-c', async () => 'neighbour')).toBe('neighbour');
    flood.resolve('flood');
    expect(await running).toBe('flood');
  });

  it('never hands the reserve to a waiting request: waiting requests take their turns within the total', async () => {
    const userD = { userId: 'user-d' };
    const { admission } = await reserveWithUsersSeen(5_000, otherCaller, { userId: 'user-c' }, userD);
    const [flood, neighbour] = [deferred(), deferred()];
    const { started, run, startOf, finishAll } = startRecorder();
    const running = [
      admission.admit(caller, 'org-a', () => flood.promise),
      admission.admit(otherCaller, 'org-b', () => neighbour.promise),
    ];
    // The reserve is taken: both wait.
    const waiting = [
      run(admission, caller, 'org-c', 'flooder 2'),
      run(admission, { userId: 'user-c' }, 'org-d', 'third'),
    ];
    expect(admission.load()).toEqual({ running: 2, waiting: 2 });
    neighbour.resolve('neighbour');
    await running[1];
    // The reserve is free again, but not for requests that wait: the total still runs.
    expect(admission.load()).toEqual({ running: 1, waiting: 2 });
    // A user who arrives running and waiting for none takes it.
    expect(await admission.admit(userD, 'org-e', async () => 'from the reserve')).toBe('from the reserve');
    flood.resolve('flood');
    await running[0];
    // The slot of the total goes to the user who has not had a turn.
    await startOf('third');
    expect(started).toEqual(['third']);
    finishAll();
    expect(await Promise.all(waiting)).toEqual(['flooder 2', 'third']);
    expect(started).toEqual(['third', 'flooder 2']);
  });

  it('keeps the reserve from a user whose request ended or was refused less than RESERVE_IDLE_MS ago', async () => {
    const { clock, admission } = await reserveWithUsersSeen(20, caller);
    const held = deferred();
    const neighbours = admission.admit(otherCaller, 'org-c', () => held.promise);
    // The total runs the neighbour's; the flooder, seen before and idle, starts from the reserve and ends.
    expect(await admission.admit(caller, 'org-a', async () => 'first')).toBe('first');
    // Asked again just before RESERVE_IDLE_MS has passed: it waits, and is refused at 1,049.
    clock.time += RESERVE_IDLE_MS - 1;
    const refused = await rejection(admission.admit(caller, 'org-a', async () => 'too soon'));
    expect(refused.detail).toBe('Too many expensive requests on this server at once; retry shortly');
    // The refusal counts as activity: one ms short of RESERVE_IDLE_MS after it, still no reserve.
    clock.time += RESERVE_IDLE_MS - 1;
    await rejection(admission.admit(caller, 'org-a', async () => 'still too soon'));
    // Idle for RESERVE_IDLE_MS since that refusal: from the reserve again.
    clock.time += RESERVE_IDLE_MS;
    expect(await admission.admit(caller, 'org-a', async () => 'idle long enough')).toBe('idle long enough');
    held.resolve('held');
    expect(await neighbours).toBe('held');
  });

  it('lets a request that waits for its organization hold no slot of its user', async () => {
    const admission = createAdmission({ perOrganization: 1, perUser: 2, total: 4, waitMs: 60_000 });
    const held = deferred();
    const running = admission.admit(caller, 'org-a', () => held.promise);
    const waiting = admission.admit(caller, 'org-a', async () => 'waited');
    // The user runs one request and waits with another: the second of their two slots is free.
    expect(await admission.admit(caller, 'org-b', async () => 'same user elsewhere')).toBe('same user elsewhere');
    held.resolve('held');
    expect(await Promise.all([running, waiting])).toEqual(['held', 'waited']);
  });

  /** One slot, a clock the test moves, users seen to finish one (idle since), and the caller's request running until held resolves. */
  async function oneSlotTaken(...seenUsers: { userId: string }[]) {
    const { clock, admission } = await oneSlotWithUsersSeen({ waitMs: 60_000 }, ...seenUsers);
    const held = deferred();
    return { clock, admission, held, running: admission.admit(caller, 'org-a', () => held.promise) };
  }

  it('past the total, rests the freed slot as long as its request ran for users who keep asking, not for an idle one', async () => {
    const { clock, admission, held, running } = await oneSlotTaken(otherCaller);
    let secondStarted = false;
    const second = admission.admit(caller, 'org-b', async () => {
      secondStarted = true;
      return 'second';
    });
    // It ran 4 ms while another waited: the flooder's next request rests 4 ms.
    clock.time += 4;
    held.resolve('held');
    expect(await running).toBe('held');
    expect(admission.load()).toEqual({ running: 0, waiting: 1 });
    // A user seen before, with nothing asked for RESERVE_IDLE_MS, is not held back by the rest.
    expect(await admission.admit(otherCaller, 'org-c', async () => 'idle user')).toBe('idle user');
    // A new request of the busy user rests too; once 4 ms have passed both run.
    let thirdStarted = false;
    const third = admission.admit(caller, 'org-d', async () => {
      thirdStarted = true;
      return 'third';
    });
    expect([secondStarted, thirdStarted]).toEqual([false, false]);
    clock.time += 4;
    expect(await Promise.all([second, third])).toEqual(['second', 'third']);
  });

  it('rests at most REST_AT_TOTAL_MAX_MS, or as long as the request ran with maxRestMs Infinity', async () => {
    for (const [maxRestMs, rest] of [
      [undefined, REST_AT_TOTAL_MAX_MS],
      [Number.POSITIVE_INFINITY, 40],
    ] as const) {
      const { clock, admission } = await oneSlotWithUsersSeen({ waitMs: 60_000, maxRestMs });
      const held = deferred();
      const running = admission.admit(caller, 'org-a', () => held.promise);
      let started = false;
      const waiting = admission.admit(caller, 'org-b', async () => {
        started = true;
        return 'waited';
      });
      clock.time += 40;
      held.resolve('held');
      await running;
      clock.time += rest - 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect({ maxRestMs, started }).toEqual({ maxRestMs, started: false });
      clock.time += 1;
      expect(await waiting).toBe('waited');
    }
  });

  it('rests no longer than the request ran when the clock steps back an hour during the rest', async () => {
    const { clock, admission, held, running } = await oneSlotTaken();
    const waiting = admission.admit(caller, 'org-b', async () => 'waited');
    clock.time += 4;
    held.resolve('held');
    await running;
    // The wall clock of a server can be set back (a time sync); the rest still ends after 4 ms of the timer.
    clock.time -= 3_600_000;
    expect(await waiting).toBe('waited');
  });

  it('keeps the reserve for a user idle when the clock steps back an hour', async () => {
    const { clock, admission } = await reserveWithUsersSeen(20, otherCaller);
    const flood = deferred();
    const running = admission.admit(caller, 'org-a', () => flood.promise);
    clock.time -= 3_600_000;
    expect(await admission.admit(otherCaller, 'org-b', async () => 'from the reserve')).toBe('from the reserve');
    flood.resolve('flood');
    expect(await running).toBe('flood');
  });

  it('starts the requests a rest held back before one that arrives after it ended, before its timer woke them', async () => {
    const { clock, admission, held, running } = await oneSlotTaken();
    const order: string[] = [];
    const request = (who: { userId: string }, name: string) =>
      admission.admit(who, 'org-b', async () => {
        order.push(name);
        return name;
      });
    const waited = request(otherCaller, 'waited through the rest');
    clock.time += 4;
    held.resolve('held');
    await running;
    // The rest of 4 ms is over on the clock, and its timer has not run yet (nothing here lets it).
    clock.time += 4;
    const late = request({ userId: 'user-c' }, 'arrived after the rest');
    expect(await Promise.all([waited, late])).toEqual(['waited through the rest', 'arrived after the rest']);
    expect(order).toEqual(['waited through the rest', 'arrived after the rest']);
  });

  it('rests nothing after a request that nobody waited for', async () => {
    const { clock, admission, held, running } = await oneSlotTaken();
    clock.time += 9;
    held.resolve('held');
    await running;
    // Nobody waited when it ended: the same user's next request starts at once.
    const next = admission.admit(caller, 'org-a', async () => 'next');
    expect(admission.load()).toEqual({ running: 1, waiting: 0 });
    expect(await next).toBe('next');
  });
});
