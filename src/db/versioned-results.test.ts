import { describe, expect, it } from 'vitest';
import { createVersionedResults } from './versioned-results.ts';

/** A compute() that counts its calls and answers its nth call with value n. */
function counted() {
  let calls = 0;
  const compute = async () => ({ call: ++calls });
  return { compute, calls: () => calls };
}

describe('versioned results', () => {
  it('serves a result again while its tokens are the same objects, frozen', async () => {
    const results = createVersionedResults(4);
    const { compute, calls } = counted();
    const [a, b] = [{}, {}];
    const first = await results.get([a, b], 'k', 1, compute);
    expect(await results.get([a, b], 'k', 1, compute)).toBe(first);
    expect(calls()).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('computes anew when one token is another object, or the key another', async () => {
    const results = createVersionedResults(4);
    const { compute, calls } = counted();
    const [a, b] = [{}, {}];
    await results.get([a, b], 'k', 1, compute);
    expect(await results.get([a, {}], 'k', 1, compute)).toEqual({ call: 2 });
    expect(await results.get([a], 'k', 1, compute)).toEqual({ call: 3 });
    expect(await results.get([a], 'other', 1, compute)).toEqual({ call: 4 });
    expect(calls()).toBe(4);
  });

  it('shares one computation between requests at the same time', async () => {
    const results = createVersionedResults(4);
    const { compute, calls } = counted();
    const token = {};
    const both = await Promise.all([results.get([token], 'k', 1, compute), results.get([token], 'k', 1, compute)]);
    expect(both[0]).toBe(both[1]);
    expect(calls()).toBe(1);
  });

  it('does not keep a failure', async () => {
    const results = createVersionedResults(4);
    const token = {};
    await expect(results.get([token], 'k', 1, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await results.get([token], 'k', 1, async () => 'up')).toBe('up');
  });

  it('drops the least recently used results beyond its size, and keeps none larger than it', async () => {
    const results = createVersionedResults(4);
    const { compute, calls } = counted();
    const token = {};
    await results.get([token], 'a', 2, compute);
    await results.get([token], 'b', 1, compute);
    await results.get([token], 'a', 2, compute); // a is now the most recently used
    await results.get([token], 'c', 2, compute); // 5 > 4: drops b
    expect(calls()).toBe(3);
    await results.get([token], 'a', 2, compute);
    await results.get([token], 'c', 2, compute);
    expect(calls()).toBe(3);
    await results.get([token], 'b', 1, compute); // drops a
    await results.get([token], 'c', 2, compute);
    expect(calls()).toBe(4);
    await results.get([token], 'huge', 5, compute);
    await results.get([token], 'huge', 5, compute);
    await results.get([token], 'b', 1, compute);
    await results.get([token], 'c', 2, compute);
    expect(calls()).toBe(6);
  });
});
