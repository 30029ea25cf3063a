import { describe, expect, it } from 'vitest';
import { firstAtOrAfter, keptMonths, monthOf, startOfMonth } from './kept-months.ts';
import { createVersionedResults } from './versioned-results.ts';

const at = (iso: string) => Date.parse(iso);

/** Months kept whose loads are recorded as [from, to) in ISO. */
function recorded(maxSize = 100) {
  const loads: string[][] = [];
  const results = createVersionedResults(maxSize, () => 1);
  const load = async (from: Date, to: Date) => {
    loads.push([from.toISOString(), to.toISOString()]);
    return from.toISOString().slice(0, 7);
  };
  return { results, loads, load };
}

describe('months kept', () => {
  it('reads each UTC month covering a range once while its tokens stay, across a year', async () => {
    const { results, loads, load } = recorded();
    const token = { tokens: [{}], key: 'm1', maxMonths: 3 };
    const range = [at('2025-12-31T23:30:00Z'), at('2026-02-01T00:00:00Z')] as const;
    expect(await keptMonths(results, token, ...range, load)).toEqual(['2025-12', '2026-01']);
    expect(await keptMonths(results, token, at('2026-01-05T00:00:00Z'), at('2026-01-06T00:00:00Z'), load)).toEqual([
      '2026-01',
    ]);
    expect(loads).toEqual([
      ['2025-12-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
      ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
    ]);
    // Another token (the meter's readings changed): read again.
    await keptMonths(results, { ...token, tokens: [{}] }, ...range, load);
    expect(loads).toHaveLength(4);
  });

  it('reads the months not kept one after the other, each once its previous one has come', async () => {
    const { results, load } = recorded();
    let reading = 0;
    let mostAtOnce = 0;
    const oneAtATime = async (from: Date, to: Date) => {
      reading += 1;
      mostAtOnce = Math.max(mostAtOnce, reading);
      // The answer comes on a later turn of the event loop, as a database's does.
      await new Promise((resolve) => setImmediate(resolve));
      reading -= 1;
      return load(from, to);
    };
    const year = [at('2025-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z')] as const;
    const months = await keptMonths(results, { tokens: [{}], key: 'y', maxMonths: 12 }, ...year, oneAtATime);
    expect(months).toHaveLength(12);
    expect(months![11]).toBe('2025-12');
    expect(mostAtOnce).toBe(1);
  });

  it('reads nothing past maxMonths, or when nothing is kept', async () => {
    const { results, loads, load } = recorded();
    const range = [at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:01Z')] as const;
    expect(await keptMonths(results, { tokens: [], key: 'm', maxMonths: 3 }, ...range, load)).toBeNull();
    const none = recorded(0);
    expect(await keptMonths(none.results, { tokens: [], key: 'm', maxMonths: 6 }, ...range, none.load)).toBeNull();
    expect([loads, none.loads]).toEqual([[], []]);
  });

  it('numbers months and finds rows by bisection', () => {
    expect(monthOf(at('2026-11-30T23:59:59.999Z'))).toBe(2026 * 12 + 10);
    expect(new Date(startOfMonth(2026 * 12 + 11)).toISOString()).toBe('2026-12-01T00:00:00.000Z');
    const times = [1, 3, 3, 5];
    expect([0, 1, 3, 4, 6].map((time) => firstAtOrAfter(times.length, (i) => times[i]!, time))).toEqual([
      0, 0, 1, 3, 4,
    ]);
  });
});
