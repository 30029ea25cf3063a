import { describe, expect, it } from 'vitest';
import { yieldToEventLoop } from './event-loop.ts';

describe('yieldToEventLoop', () => {
  it('runs one waiting step a round of the event loop: what a step queued for the loop goes before the next step', async () => {
    const seen: string[] = [];
    const step = (name: string) =>
      yieldToEventLoop().then(() => {
        seen.push(name);
        setImmediate(() => seen.push(`after ${name}`));
      });
    await Promise.all([step('first'), step('second'), step('third')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['first', 'after first', 'second', 'after second', 'third', 'after third']);
  });
});
