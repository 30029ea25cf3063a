import { virtualTime } from './fair-scheduler.ts';

/** Steps waiting for their round of the event loop, by organization, each one's in order of arrival. */
const waiting = new Map<string, (() => void)[]>();
/** The time each organization's steps have taken, as the fair scheduler counts its work's. */
const served = virtualTime();
let roundScheduled = false;

/** The organization whose steps have taken least, of those with a step waiting. */
function leastServed(): string | undefined {
  let chosen: string | undefined;
  let least = Number.POSITIVE_INFINITY;
  for (const key of waiting.keys()) {
    if (served.of(key) < least) [chosen, least] = [key, served.of(key)];
  }
  return chosen;
}

function releaseOne(): void {
  roundScheduled = false;
  const key = leastServed();
  if (key === undefined) return;
  const steps = waiting.get(key)!;
  const release = steps.shift()!;
  if (steps.length === 0) waiting.delete(key);
  served.chosen(key);
  const began = performance.now();
  release();
  // After the step released has run up to its next await: it is charged its time, and what it
  // queued for the loop goes before the next step.
  queueMicrotask(() => {
    served.charge(key, performance.now() - began, (other) => waiting.has(other));
    scheduleRound();
  });
}

function scheduleRound(): void {
  if (roundScheduled || waiting.size === 0) return;
  roundScheduled = true;
  setImmediate(releaseOne);
}

/**
 * Resolves in a round of the event loop of its own, after what waits for the loop (answers from the
 * database, new requests): long work awaits it between its steps, so that the main thread runs one
 * step between two looks at its sockets, whatever the number of requests working at once. Of the
 * steps waiting, the organization's (`key`) whose steps have taken least goes first, as the fair
 * scheduler orders whole pieces of work: a neighbour's bill of a few steps does not wait behind a
 * flood's.
 */
export function yieldToEventLoop(key = ''): Promise<void> {
  return new Promise((resolve) => {
    const steps = waiting.get(key);
    if (steps) steps.push(resolve);
    else {
      served.comeBack(key);
      waiting.set(key, [resolve]);
    }
    scheduleRound();
  });
}
