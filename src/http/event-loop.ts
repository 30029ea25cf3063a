/**
 * Resolves in the event loop's next round, after what waits for it (answers from the database, new
 * requests): long work awaits it between its steps, so that the main thread never runs one piece of
 * it for long.
 */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
