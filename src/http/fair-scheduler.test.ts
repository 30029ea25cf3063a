import { describe, expect, it } from 'vitest';
import { createFairScheduler, type SchedulerLimits, type Step, type Ticket } from './fair-scheduler.ts';

/** A scheduler on a clock the test moves, whose work runs until the test ends it. */
function harness(limits: Partial<SchedulerLimits> = {}) {
  let clock = 0;
  const scheduler = createFairScheduler({
    slots: 1,
    reserve: 0,
    perUser: 10,
    perOrganization: 10,
    queue: 100,
    queuePerUser: 100,
    now: () => clock,
    ...limits,
  });
  const started: string[] = [];
  const running = new Map<string, { finish: () => void; step: Step }>();
  const settled = () => new Promise((resolve) => setImmediate(resolve));

  /** Asks for work named `name`; it records its start and runs until `finish(name)`. */
  function ask(name: string, ticket: Ticket) {
    const outcome = scheduler.run(ticket, (step) => {
      started.push(name);
      return new Promise<string>((resolve) => running.set(name, { finish: () => resolve(name), step }));
    });
    outcome.catch(() => {});
    return outcome;
  }

  async function finish(name: string, afterMs = 0) {
    clock += afterMs;
    running.get(name)!.finish();
    running.delete(name);
    await settled();
  }

  return {
    scheduler,
    started,
    ask,
    finish,
    settled,
    step: (name: string) => running.get(name)!.step(),
    isRunning: (name: string) => running.has(name),
    runningNames: () => [...running.keys()],
  };
}

const of = (userId: string, organizationId: string, signal?: AbortSignal): Ticket => ({
  userId,
  organizationId,
  signal,
});

describe('the fair scheduler', () => {
  it('gives a free slot to the organization whose work has taken least, whatever the number of flooding users', async () => {
    const h = harness();
    void h.ask('flood-0', of('flooder-0', 'flooded'));
    await h.settled();
    // Twenty users of one organization queue a request each, then another organization one.
    for (let i = 1; i <= 20; i++) void h.ask(`flood-${i}`, of(`flooder-${i}`, 'flooded'));
    void h.ask('neighbour', of('neighbour', 'other'));
    await h.finish('flood-0', 100);
    expect(h.started).toEqual(['flood-0', 'neighbour']);
  });

  it('starts a quiet organization’s request at once from the reserve past twenty organizations that keep asking', async () => {
    const h = harness({ reserve: 1 });
    const names = Array.from({ length: 20 }, (_, i) => `o${i}`);
    for (const name of names) for (const n of [1, 2]) void h.ask(`${name}-${n}`, of(`u-${name}`, name));
    await h.settled();
    // Each organization's first request came while it was quiet; once they have run, the second
    // ones, which came while the first waited, neither are quiet nor take the reserve.
    while (names.some((name) => !h.started.includes(`${name}-1`) || h.isRunning(`${name}-1`))) {
      await h.finish(h.runningNames()[0]!, 10);
    }
    const before = h.started.length;
    void h.ask('neighbour', of('neighbour', 'quiet'));
    await h.settled();
    expect(h.started.slice(before)).toEqual(['neighbour']);
    expect(h.scheduler.load().running).toBe(2);
  });

  it('puts a quiet organization’s request first in the queue of twenty organizations that keep asking', async () => {
    const h = harness();
    const names = Array.from({ length: 20 }, (_, i) => `o${i}`);
    for (const name of names) {
      void h.ask(`${name}-1`, of(`u-${name}`, name));
      void h.ask(`${name}-2`, of(`u-${name}`, name));
    }
    await h.settled();
    // A round: each organization's first request runs 10 ms; the second round begins.
    for (const name of names) await h.finish(`${name}-1`, 10);
    void h.ask('neighbour', of('neighbour', 'quiet'));
    await h.finish(h.started.at(-1)!, 10);
    expect(h.started.at(-1)).toBe('neighbour');
  });

  it('takes turns between the users of one organization, then each user’s requests in order of arrival', async () => {
    const h = harness();
    void h.ask('a1', of('a', 'org'));
    void h.ask('a2', of('a', 'org'));
    void h.ask('a3', of('a', 'org'));
    void h.ask('b1', of('b', 'org'));
    await h.settled();
    await h.finish('a1', 10);
    await h.finish('b1', 10);
    await h.finish('a2', 10);
    expect(h.started).toEqual(['a1', 'b1', 'a2', 'a3']);
  });

  it('starts the request chosen next at once from the reserve when every slot is taken', async () => {
    const h = harness({ reserve: 1 });
    void h.ask('flood-1', of('flooder', 'flooded'));
    void h.ask('flood-2', of('flooder', 'flooded'));
    void h.ask('neighbour', of('neighbour', 'other'));
    await h.settled();
    expect(h.started).toEqual(['flood-1', 'neighbour']);
    expect(h.scheduler.load()).toEqual({ running: 2, waiting: 1 });
    // The flooder, with a request waiting, never takes the reserve.
    await h.finish('neighbour', 1);
    void h.ask('flood-3', of('flooder', 'flooded'));
    await h.settled();
    expect(h.started).toEqual(['flood-1', 'neighbour']);
  });

  it('starts a neighbour’s second request from the reserve while its first runs, once the flood has moved on', async () => {
    const h = harness({ reserve: 2 });
    for (const n of [1, 2, 3, 4]) for (const name of ['a', 'b', 'c']) void h.ask(`${name}${n}`, of(name, name));
    await h.settled();
    /** Ends the flood's running work, 10 ms each, one after the other. */
    const floodMovesOn = async (times: number) => {
      for (let i = 0; i < times; i++) await h.finish(h.runningNames().find((name) => /^[abc]/.test(name))!, 10);
    };
    await floodMovesOn(6);
    void h.ask('first', of('neighbour', 'quiet'));
    await h.settled();
    expect(h.isRunning('first')).toBe(true);
    await floodMovesOn(3);
    void h.ask('second', of('neighbour', 'quiet'));
    await h.settled();
    expect([h.isRunning('first'), h.isRunning('second')]).toEqual([true, true]);
  });

  it('starts a quiet request that found the reserve taken from it once it frees, before the slot does', async () => {
    const h = harness({ reserve: 1 });
    void h.ask('flood-1', of('flooder', 'flooded'));
    void h.ask('flood-2', of('flooder', 'flooded'));
    void h.ask('first-neighbour', of('neighbour-1', 'quiet-1'));
    void h.ask('second-neighbour', of('neighbour-2', 'quiet-2'));
    await h.settled();
    expect(h.started).toEqual(['flood-1', 'first-neighbour']);
    await h.finish('first-neighbour', 1);
    expect(h.started).toEqual(['flood-1', 'first-neighbour', 'second-neighbour']);
  });

  it('holds work past its user’s and its organization’s caps, and runs it once they free', async () => {
    const h = harness({ slots: 4, perUser: 1, perOrganization: 2 });
    void h.ask('a1', of('a', 'org'));
    void h.ask('a2', of('a', 'org'));
    void h.ask('b1', of('b', 'org'));
    void h.ask('c1', of('c', 'org'));
    await h.settled();
    expect(h.started).toEqual(['a1', 'b1']);
    await h.finish('a1', 5);
    // c, who has had no turn yet, before a, who just had one.
    expect(h.started).toEqual(['a1', 'b1', 'c1']);
  });

  it('refuses at once with 429 and Retry-After beyond the queue of the process or of the user', async () => {
    const h = harness({ queue: 2, queuePerUser: 1 });
    void h.ask('running', of('a', 'org'));
    void h.ask('waiting', of('a', 'org'));
    await h.settled();
    const ofUser = await h.ask('refused', of('a', 'org')).catch((error) => error);
    expect(ofUser).toMatchObject({ statusCode: 429, headers: { 'retry-after': '1' } });
    expect(ofUser.message).toBe('Too many requests of yours waiting; retry shortly');
    void h.ask('other', of('b', 'org'));
    const ofServer = await h.ask('refused-too', of('c', 'org')).catch((error) => error);
    expect(ofServer.message).toBe('Too many requests on this server waiting; retry shortly');
  });

  it('refuses an already-aborted ticket without taking or leaking a slot', async () => {
    const h = harness();
    const gone = AbortSignal.abort(new Error('gone'));
    await expect(h.ask('late', of('a', 'org', gone))).rejects.toThrow('gone');
    await expect(h.scheduler.hold(of('a', 'org', gone))).rejects.toThrow('gone');
    expect(h.scheduler.load()).toEqual({ running: 0, waiting: 0 });
    void h.ask('next', of('b', 'org'));
    await h.settled();
    expect(h.started).toEqual(['next']);
  });

  it('leaves the queue when the ticket’s signal fires while it waits', async () => {
    const h = harness();
    void h.ask('running', of('a', 'org'));
    const deadline = new AbortController();
    const waiting = h.ask('waiting', of('b', 'other', deadline.signal));
    await h.settled();
    deadline.abort(new Error('deadline passed'));
    await expect(waiting).rejects.toThrow('deadline passed');
    expect(h.scheduler.load()).toEqual({ running: 1, waiting: 0 });
  });

  it('gives the slot to waiting work between steps, and stops at a step once the signal has fired', async () => {
    const h = harness();
    const ended = new AbortController();
    void h.ask('long', of('a', 'org', ended.signal));
    void h.ask('short', of('b', 'other'));
    await h.settled();
    const nextStep = h.step('long');
    await h.settled();
    expect(h.started).toEqual(['long', 'short']);
    await h.finish('short', 1);
    await nextStep;
    ended.abort(new Error('client gone'));
    await expect(h.step('long')).rejects.toThrow('client gone');
  });

  it('holds a slot until released, and a second release frees nothing more', async () => {
    const h = harness();
    const release = await h.scheduler.hold(of('a', 'org'));
    void h.ask('next', of('b', 'other'));
    void h.ask('after', of('c', 'third'));
    await h.settled();
    expect(h.started).toEqual([]);
    release();
    release();
    await h.settled();
    expect(h.started).toEqual(['next']);
  });

  it('takes a free slot at once with holdNow, within the caps, and answers undefined where the ticket would wait', async () => {
    const h = harness({ slots: 2, perUser: 1 });
    const release = h.scheduler.holdNow(of('a', 'org'));
    expect(release).toBeTypeOf('function');
    expect(h.scheduler.holdNow(of('a', 'other'))).toBeUndefined();
    const second = h.scheduler.holdNow(of('b', 'org'));
    expect(h.scheduler.load()).toEqual({ running: 2, waiting: 0 });
    expect(h.scheduler.holdNow(of('c', 'third'))).toBeUndefined();
    void h.ask('next', of('c', 'third'));
    await h.settled();
    expect(h.started).toEqual([]);
    release!();
    release!();
    await h.settled();
    expect(h.started).toEqual(['next']);
    second!();
    expect(h.scheduler.load()).toEqual({ running: 1, waiting: 0 });
  });
});
