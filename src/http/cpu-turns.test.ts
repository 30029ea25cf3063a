import { describe, expect, it } from 'vitest';
import { COME_BACK_AHEAD_MS, createCpuTurns } from './cpu-turns.ts';

/** A clock the steps move: each step "takes" the ms it adds. */
function steppedClock() {
  let ms = 0;
  return { now: () => ms, spend: (more: number) => (ms += more) };
}

/** Queues `count` steps of user, each taking stepMs on the clock, recording their order; resolves when all ran. */
function queueSteps(
  turns: ReturnType<typeof createCpuTurns>,
  clock: ReturnType<typeof steppedClock>,
  order: string[],
  user: string,
  count: number,
  stepMs = 10,
) {
  return Promise.all(
    Array.from({ length: count }, async () => {
      await turns.take(user);
      order.push(user);
      clock.spend(stepMs);
    }),
  );
}

describe('CPU turns', () => {
  it('gives a user who asks once the next turn, before the queued steps of a user who keeps asking', async () => {
    const clock = steppedClock();
    const turns = createCpuTurns(clock.now);
    const order: string[] = [];
    let neighbour: Promise<unknown> | undefined;
    await Promise.all(
      Array.from({ length: 4 }, async (_, step) => {
        await turns.take('flooder');
        order.push('flooder');
        clock.spend(10);
        // The neighbour asks while the flooder's first step runs, three more of its steps queued.
        if (step === 0) neighbour = queueSteps(turns, clock, order, 'neighbour', 1);
      }),
    );
    await neighbour;
    expect(order).toEqual(['flooder', 'neighbour', 'flooder', 'flooder', 'flooder']);
  });

  it('gives one turn a round of the event loop: what a step queues runs before the next step', async () => {
    const turns = createCpuTurns();
    const order: string[] = [];
    await Promise.all(
      [1, 2].map(async (step) => {
        await turns.take('user');
        order.push(`step ${step}`);
        setImmediate(() => order.push(`queued by step ${step}`));
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['step 1', 'queued by step 1', 'step 2', 'queued by step 2']);
  });

  it('brings a user who was idle back a little ahead: the few steps of a bill asked now and then run one after the other', async () => {
    const clock = steppedClock();
    const turns = createCpuTurns(clock.now);
    const order: string[] = [];
    let neighbour: Promise<unknown> | undefined;
    // Two users who keep asking (steps of 1 ms, in turn); a neighbour asks a bill of three 2 ms steps
    // during the first user's third step.
    const flooder = (user: string) =>
      Promise.all(
        Array.from({ length: 6 }, async (_, step) => {
          await turns.take(user);
          order.push(user);
          clock.spend(1);
          if (user === 'a' && step === 2) neighbour = queueSteps(turns, clock, order, 'neighbour', 3, 2);
        }),
      );
    await Promise.all([flooder('a'), flooder('b')]);
    await neighbour;
    // Level with the last user served, its second and third steps would wait for two steps of each flooder.
    expect(order.slice(4, 8)).toEqual(['a', 'neighbour', 'neighbour', 'neighbour']);
  });

  it(`saves no more than ${COME_BACK_AHEAD_MS} ms of credit for a user who was idle`, async () => {
    const clock = steppedClock();
    const turns = createCpuTurns(clock.now);
    const order: string[] = [];
    await queueSteps(turns, clock, order, 'busy', 5);
    order.length = 0;
    await Promise.all([queueSteps(turns, clock, order, 'idle', 4), queueSteps(turns, clock, order, 'busy', 4)]);
    // With credit for the 50 ms it did not use, the idle user would take its 4 turns first.
    expect(order).toEqual(['idle', 'idle', 'busy', 'idle', 'busy', 'idle', 'busy', 'busy']);
  });

  it('charges a user the time around each step as well: many tiny steps weigh what their requests cost', async () => {
    const clock = steppedClock();
    const turns = createCpuTurns(clock.now);
    const order: string[] = [];
    // Three tiny steps (1 ms each) that carry 5 ms around them, against steps of 4 ms with nothing around.
    const tiny = Promise.all(
      Array.from({ length: 3 }, async () => {
        await turns.take('tiny', 5);
        order.push('tiny');
        clock.spend(1);
      }),
    );
    await Promise.all([tiny, queueSteps(turns, clock, order, 'bill', 3, 4)]);
    // Charged 6 ms a step the tiny user's turns come after the bill's second; charged 1 ms they would all come first.
    expect(order).toEqual(['tiny', 'bill', 'bill', 'tiny', 'bill', 'tiny']);
  });
});
