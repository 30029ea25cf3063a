import { describe, expect, it } from 'vitest';
import { rejection } from '../../test/helpers/rejection.ts';
import { createAdmission, RESERVE_IDLE_MS } from './admission.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const flooder = { userId: 'flooder' };
const neighbour = { userId: 'neighbour' };

/** Resolves once `done` holds, the event loop turned between looks. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setImmediate(resolve));
}

/** `total` slots of the process (one by default) on a clock the test moves, a log of what ran in which order. */
function slots({ total = 1, waitMs = 60_000, idleUserReserve = 0, perUser = 8 } = {}) {
  const clock = { time: 1_000 };
  const admission = createAdmission({
    perOrganization: 4,
    perUser,
    total,
    idleUserReserve,
    waitMs,
    now: () => clock.time,
  });
  const log: string[] = [];
  /** Work of steps, each held until its gate opens, the hand-over awaited between them. */
  const stepwise = (who: { userId: string }, organization: string, name: string, gates: Promise<void>[]) =>
    admission.admit(who, organization, async (handOver) => {
      for (const [i, gate] of gates.entries()) {
        if (i > 0) await handOver();
        log.push(`${name} step ${i + 1}`);
        await gate;
      }
      return name;
    });
  /** One step of work, held until `gate` opens. */
  const single = (who: { userId: string }, organization: string, name: string, gate = Promise.resolve()) =>
    stepwise(who, organization, name, [gate]);
  /** The flooder's comparison of `count` steps, its first step running. */
  const comparisonRunning = async (count: number) => {
    const steps = Array.from({ length: count }, () => deferred());
    const work = stepwise(
      flooder,
      'org-a',
      'comparison',
      steps.map((step) => step.promise),
    );
    await until(() => log.length === 1);
    return { steps, work };
  };
  return { admission, log, stepwise, single, clock, comparisonRunning };
}

describe('work handed over between its steps', () => {
  it('lets another user’s waiting request run after one step, then goes on before anything newer', async () => {
    const { admission, log, single, comparisonRunning } = slots();
    const { steps, work } = await comparisonRunning(3);
    const bill = single(neighbour, 'org-b', 'bill');
    expect(admission.load()).toEqual({ running: 1, waiting: 1 });
    steps[0]!.resolve();
    // The first step ended with a request of another user waiting: the slot went to it.
    await bill;
    await until(() => log.length === 3);
    expect(log).toEqual(['comparison step 1', 'bill step 1', 'comparison step 2']);
    steps[1]!.resolve();
    await until(() => log.length === 4);
    steps[2]!.resolve();
    expect(await work).toBe('comparison');
    expect(log).toEqual(['comparison step 1', 'bill step 1', 'comparison step 2', 'comparison step 3']);
    expect(admission.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('goes on at once when nobody else waits, or only requests of its own user', async () => {
    const { admission, log, single, comparisonRunning } = slots();
    const { steps, work } = await comparisonRunning(2);
    const ownNext = single(flooder, 'org-b', 'own next');
    steps[0]!.resolve();
    await until(() => log.length === 2);
    // Its user's own waiting request did not take the slot between the steps.
    expect(log).toEqual(['comparison step 1', 'comparison step 2']);
    expect(admission.load()).toEqual({ running: 1, waiting: 1 });
    steps[1]!.resolve();
    expect(await work).toBe('comparison');
    expect(await ownNext).toBe('own next');
    expect(log).toEqual(['comparison step 1', 'comparison step 2', 'own next step 1']);
  });

  it('is never refused while it waits to go on, and goes before its user’s new requests, which may be refused', async () => {
    const { log, single, comparisonRunning } = slots({ waitMs: 20 });
    const bill = deferred();
    const { steps, work } = await comparisonRunning(2);
    const neighbourRun = single(neighbour, 'org-b', 'bill', bill.promise);
    steps[0]!.resolve();
    await until(() => log.length === 2);
    expect(log).toEqual(['comparison step 1', 'bill step 1']);
    // The user's new request waits longer than waitMs behind the bill: refused. Their work handed
    // over waits as long as it must.
    expect((await rejection(single(flooder, 'org-c', 'new request'))).statusCode).toBe(429);
    const newer = single(flooder, 'org-c', 'newer request');
    bill.resolve();
    await neighbourRun;
    await until(() => log.length === 3);
    expect(log).toEqual(['comparison step 1', 'bill step 1', 'comparison step 2']);
    steps[1]!.resolve();
    expect(await work).toBe('comparison');
    expect(await newer).toBe('newer request');
  });

  it('keeps counting against its user’s limit while it waits to go on, and is not held back by it', async () => {
    const { admission, log, single, comparisonRunning } = slots({ waitMs: 20, perUser: 1 });
    const bill = deferred();
    const { steps, work } = await comparisonRunning(2);
    const neighbourRun = single(neighbour, 'org-b', 'bill', bill.promise);
    steps[0]!.resolve();
    await until(() => log.length === 2);
    expect(admission.load()).toEqual({ running: 1, waiting: 1 });
    // The work waiting to go on is still the user's one request.
    expect((await rejection(single(flooder, 'org-c', 'second request'))).detail).toBe(
      'Too many expensive requests of yours at once; retry shortly',
    );
    bill.resolve();
    await neighbourRun;
    steps[1]!.resolve();
    expect(await work).toBe('comparison');
    expect(log).toEqual(['comparison step 1', 'bill step 1', 'comparison step 2']);
  });

  it('gives the reserve back at its first hand-over: it goes on within the total, after an idle user’s request', async () => {
    const { admission, log, stepwise, single, clock } = slots({ idleUserReserve: 1 });
    for (const who of [flooder, neighbour]) await single(who, 'org-z', 'seen');
    clock.time += RESERVE_IDLE_MS;
    log.length = 0;
    const held = deferred();
    const running = single({ userId: 'third' }, 'org-c', 'running', held.promise);
    // The flooder looks idle: its work starts from the reserve.
    const steps = [deferred(), deferred()];
    const work = stepwise(
      flooder,
      'org-a',
      'comparison',
      steps.map((s) => s.promise),
    );
    await until(() => log.length === 2);
    expect(admission.load()).toEqual({ running: 2, waiting: 0 });
    const bill = single(neighbour, 'org-b', 'bill');
    steps[0]!.resolve();
    // Handed over, the work is not in the reserve any more: it waits for the total's slot.
    await until(() => admission.load().running === 1);
    expect(admission.load()).toEqual({ running: 1, waiting: 2 });
    held.resolve();
    await running;
    await bill;
    await until(() => log.length === 4);
    expect(log).toEqual(['running step 1', 'comparison step 1', 'bill step 1', 'comparison step 2']);
    steps[1]!.resolve();
    expect(await work).toBe('comparison');
    expect(admission.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('keeps new requests of a user who runs something waiting while work handed over waits: started work ends first', async () => {
    const { log, stepwise, single } = slots({ total: 3 });
    const firstSteps = [deferred(), deferred(), deferred()];
    const rest = deferred();
    const works = ['x', 'y', 'w'].map((name, i) =>
      stepwise(flooder, `org-${name}`, name, [firstSteps[i]!.promise, rest.promise]),
    );
    await until(() => log.length === 3);
    const neighbourFirst = deferred();
    const first = single(neighbour, 'org-n', 'neighbour 1', neighbourFirst.promise);
    firstSteps[0]!.resolve();
    await until(() => log.length === 4);
    expect(log.slice(3)).toEqual(['neighbour 1 step 1']);
    // The neighbour runs one; the flooder three, one of them handed over and waiting.
    const second = single(neighbour, 'org-n2', 'neighbour 2');
    firstSteps[1]!.resolve();
    // A slot freed: the neighbour, running fewer, would go before the flooder's work, but that work
    // has started and the neighbour's second request has not.
    await until(() => log.length === 5);
    expect(log.slice(3)).toEqual(['neighbour 1 step 1', 'x step 2']);
    rest.resolve();
    firstSteps[2]!.resolve();
    neighbourFirst.resolve();
    expect(await Promise.all([...works, first, second])).toEqual(['x', 'y', 'w', 'neighbour 1', 'neighbour 2']);
  });

  it('takes turns with a user whose requests wait back to back: work handed over is not kept waiting by them', async () => {
    const { log, single, comparisonRunning } = slots();
    const { steps, work } = await comparisonRunning(3);
    const gates = [deferred(), deferred(), deferred()];
    // The neighbour keeps two requests waiting or running at all times.
    const bills = [single(neighbour, 'org-b', 'bill 1', gates[0]!.promise)];
    bills.push(single(neighbour, 'org-b', 'bill 2', gates[1]!.promise));
    steps[0]!.resolve();
    await until(() => log.length === 2);
    bills.push(single(neighbour, 'org-b', 'bill 3', gates[2]!.promise));
    gates[0]!.resolve();
    await until(() => log.length === 3);
    steps[1]!.resolve();
    await until(() => log.length === 4);
    for (const gate of [...gates, ...steps]) gate.resolve();
    await Promise.all([work, ...bills]);
    expect(log).toEqual([
      'comparison step 1',
      'bill 1 step 1',
      'comparison step 2',
      'bill 2 step 1',
      'comparison step 3',
      'bill 3 step 1',
    ]);
  });

  it('stops at its next hand-over once its client has gone, and its slot goes on to the next', async () => {
    const { admission, log, single } = slots();
    const gone = new AbortController();
    const firstStep = deferred();
    const steps: number[] = [];
    const work = admission.admit(
      flooder,
      'org-a',
      async (handOver) => {
        for (const step of [1, 2, 3]) {
          await handOver();
          steps.push(step);
          if (step === 1) await firstStep.promise;
        }
        return 'done';
      },
      gone.signal,
    );
    await until(() => steps.length === 1);
    const bill = single(neighbour, 'org-b', 'bill');
    gone.abort(new Error('client gone'));
    firstStep.resolve();
    await expect(work).rejects.toThrow('client gone');
    expect(steps).toEqual([1]);
    expect(await bill).toBe('bill');
    expect(log).toEqual(['bill step 1']);
    expect(admission.load()).toEqual({ running: 0, waiting: 0 });
  });
});
