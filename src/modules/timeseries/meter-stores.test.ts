import { setImmediate as nextRound } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createMeterStores } from './meter-stores.ts';

/** A store that records its start and ends when `end` is called (failing with `error`, if given). */
function storeOf(name: string, started: string[]) {
  let end!: (error?: Error) => void;
  const run = () =>
    new Promise<string>((resolve, reject) => {
      started.push(name);
      end = (error) => (error ? reject(error) : resolve(name));
    });
  return { run, end: (error?: Error) => end(error) };
}

describe("a meter's stores one after the other", () => {
  it("starts a meter's next store when its last has ended, stored or failed, and another meter's at once", async () => {
    const stores = createMeterStores();
    const started: string[] = [];
    const [a1, a2, a3, b1] = ['a1', 'a2', 'a3', 'b1'].map((name) => storeOf(name, started));
    const runs = [
      stores.run([1], a1!.run),
      stores.run([1], a2!.run),
      stores.run([1], a3!.run),
      stores.run([2], b1!.run),
    ];
    await nextRound();
    expect(started).toEqual(['a1', 'b1']);

    a1!.end(new Error('conflict'));
    await expect(runs[0]).rejects.toThrow('conflict');
    await nextRound();
    expect(started).toEqual(['a1', 'b1', 'a2']);
    a2!.end();
    await nextRound();
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3']);
    a3!.end();
    b1!.end();
    await expect(Promise.all(runs.slice(1))).resolves.toEqual(['a2', 'a3', 'b1']);
  });

  it("starts a store of several meters once each one's earlier stores have ended, and their next stores after it", async () => {
    const stores = createMeterStores();
    const started: string[] = [];
    const [a, b, ab, a2, c] = ['a', 'b', 'ab', 'a2', 'c'].map((name) => storeOf(name, started));
    const runs = [
      stores.run([1], a!.run),
      stores.run([2], b!.run),
      stores.run([1, 2], ab!.run),
      stores.run([1], a2!.run),
      stores.run([3], c!.run),
    ];
    await nextRound();
    expect(started).toEqual(['a', 'b', 'c']);
    a!.end();
    await nextRound();
    expect(started).toEqual(['a', 'b', 'c']);
    b!.end();
    await nextRound();
    expect(started).toEqual(['a', 'b', 'c', 'ab']);
    ab!.end();
    await nextRound();
    expect(started).toEqual(['a', 'b', 'c', 'ab', 'a2']);
    a2!.end();
    c!.end();
    await expect(Promise.all(runs)).resolves.toEqual(['a', 'b', 'ab', 'a2', 'c']);
  });
});
