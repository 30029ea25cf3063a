import { describe, expect, it } from 'vitest';
import { createVersionedResults } from './versioned-results.ts';

/** A compute() that counts its calls and answers its nth call with a text of `length` characters naming n. */
function counted(length = 1) {
  let calls = 0;
  const compute = async () => ({ text: String(++calls).padEnd(length, '.') });
  return { compute, calls: () => calls };
}

const sizeOf = (value: { text: string }) => value.text.length;

describe('versioned results', () => {
  it('serves a result again while its tokens are the same objects, frozen', async () => {
    const results = createVersionedResults(4, sizeOf);
    const { compute, calls } = counted();
    const [a, b] = [{}, {}];
    const first = await results.get([a, b], 'k', compute);
    expect(await results.get([a, b], 'k', compute)).toBe(first);
    expect(calls()).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('computes anew when one token is another object, or the key another', async () => {
    const results = createVersionedResults(4, sizeOf);
    const { compute, calls } = counted();
    const [a, b] = [{}, {}];
    await results.get([a, b], 'k', compute);
    expect(await results.get([a, {}], 'k', compute)).toEqual({ text: '2' });
    expect(await results.get([a], 'k', compute)).toEqual({ text: '3' });
    expect(await results.get([a], 'other', compute)).toEqual({ text: '4' });
    expect(calls()).toBe(4);
  });

  it('shares one computation between requests at the same time', async () => {
    const results = createVersionedResults(4, sizeOf);
    const { compute, calls } = counted();
    const token = {};
    const both = await Promise.all([results.get([token], 'k', compute), results.get([token], 'k', compute)]);
    expect(both[0]).toBe(both[1]);
    expect(calls()).toBe(1);
  });

  it('does not keep a failure', async () => {
    const results = createVersionedResults(4, sizeOf);
    const token = {};
    await expect(results.get([token], 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await results.get([token], 'k', async () => ({ text: 'up' }))).toEqual({ text: 'up' });
  });

  it('drops the least recently used results beyond its size, and keeps none larger than it', async () => {
    const results = createVersionedResults(4, sizeOf);
    const small = counted(1);
    const large = counted(2);
    const token = {};
    await results.get([token], 'a', large.compute);
    await results.get([token], 'b', small.compute);
    await results.get([token], 'a', large.compute); // a is now the most recently used
    await results.get([token], 'c', large.compute); // 5 > 4: drops b
    expect([large.calls(), small.calls()]).toEqual([2, 1]);
    await results.get([token], 'a', large.compute);
    await results.get([token], 'c', large.compute);
    expect([large.calls(), small.calls()]).toEqual([2, 1]);
    await results.get([token], 'b', small.compute); // drops a
    await results.get([token], 'c', large.compute);
    expect([large.calls(), small.calls()]).toEqual([2, 2]);
    const huge = counted(5);
    await results.get([token], 'huge', huge.compute);
    await results.get([token], 'huge', huge.compute);
    expect(huge.calls()).toBe(2);
    await results.get([token], 'b', small.compute);
    await results.get([token], 'c', large.compute);
    expect([large.calls(), small.calls()]).toEqual([2, 2]);
  });

  it('with keepOnSecondRequest, keeps a result from the second time its key is asked for', async () => {
    const results = createVersionedResults(4, sizeOf, { keepOnSecondRequest: { keysRemembered: 2 } });
    const { compute, calls } = counted();
    const token = {};
    await results.get([token], 'k', compute);
    await results.get([token], 'k', compute);
    const kept = await results.get([token], 'k', compute);
    expect(await results.get([token], 'k', compute)).toBe(kept);
    expect(calls()).toBe(2);
  });

  it('with keepOnSecondRequest, keeps nothing of keys each asked for once, and forgets the oldest of them', async () => {
    const results = createVersionedResults(4, sizeOf, { keepOnSecondRequest: { keysRemembered: 2 } });
    const { compute, calls } = counted();
    const token = {};
    await results.get([token], 'kept', compute);
    await results.get([token], 'kept', compute);
    for (const key of ['a', 'b', 'c']) await results.get([token], key, compute);
    // 'kept' stays kept; 'a' was forgotten (2 keys remembered), so its second request keeps nothing yet.
    await results.get([token], 'kept', compute);
    await results.get([token], 'a', compute);
    await results.get([token], 'a', compute);
    expect(calls()).toBe(7);
  });

  it('with a size of 0, keeps nothing and says so', async () => {
    const results = createVersionedResults(0, sizeOf);
    const { compute, calls } = counted();
    const token = {};
    expect(await results.get([token], 'k', compute)).toEqual({ text: '1' });
    expect(await results.get([token], 'k', compute)).toEqual({ text: '2' });
    expect(calls()).toBe(2);
    expect([results.keeps, createVersionedResults(1, sizeOf).keeps]).toEqual([false, true]);
  });
});
