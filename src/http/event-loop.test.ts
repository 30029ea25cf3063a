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

  it('releases the step of the organization whose steps have taken least first', async () => {
    const seen: string[] = [];
    const burn = (ms: number) => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const step = (key: string, name: string, ms: number) =>
      yieldToEventLoop(key).then(() => {
        seen.push(name);
        burn(ms);
      });
    // A flood's organization has taken 20 ms of steps; a neighbour then asks for one.
    await step('flood', 'flood 1', 20);
    const flood = [step('flood', 'flood 2', 1), step('flood', 'flood 3', 1)];
    const neighbour = step('neighbour', 'neighbour', 1);
    await Promise.all([...flood, neighbour]);
    expect(seen).toEqual(['flood 1', 'neighbour', 'flood 2', 'flood 3']);
  });
});
