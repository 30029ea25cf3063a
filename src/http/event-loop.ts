/** Steps waiting for their round of the event loop, in order of arrival. */
const waiting: (() => void)[] = [];
let roundScheduled = false;

function releaseOne(): void {
  roundScheduled = false;
  waiting.shift()?.();
  // After the step released has run up to its next await: what it queued for the loop goes first.
  queueMicrotask(scheduleRound);
}

function scheduleRound(): void {
  if (roundScheduled || waiting.length === 0) return;
  roundScheduled = true;
  setImmediate(releaseOne);
}

/**
 * Resolves in a round of the event loop of its own, after what waits for the loop (answers from the
 * database, new requests): long work awaits it between its steps, so that the main thread runs one
 * step of it between two looks at its sockets, whatever the number of requests working at once.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    scheduleRound();
  });
}
