import { describe, expect, it } from 'vitest';
import { firstAtOrAfter, groupByMonth, keptMonths, monthOf, startOfMonth } from './kept-months.ts';
import { createVersionedResults } from './versioned-results.ts';

const at = (iso: string) => Date.parse(iso);

/** Months kept whose loads are recorded as [from, to) in ISO; a month's value is its name (2026-01). */
function recorded(maxSize = 100) {
  const loads: string[][] = [];
  const results = createVersionedResults(maxSize, () => 1);
  const load = async (from: Date, to: Date) => {
    loads.push([from.toISOString(), to.toISOString()]);
    const names: string[] = [];
    for (let month = monthOf(from.getTime()); month < monthOf(to.getTime()); month++) {
      names.push(new Date(startOfMonth(month)).toISOString().slice(0, 7));
    }
    return names;
  };
  return { results, loads, load };
}

describe('months kept', () => {
  it('reads each UTC month covering a range once while its tokens stay, the months not kept in one load', async () => {
    const { results, loads, load } = recorded();
    const token = { tokens: [{}], key: 'm1', maxMonths: 3 };
    const range = [at('2025-12-31T23:30:00Z'), at('2026-02-01T00:00:00Z')] as const;
    expect(await keptMonths(results, token, ...range, load)).toEqual(['2025-12', '2026-01']);
    expect(await keptMonths(results, token, at('2026-01-05T00:00:00Z'), at('2026-01-06T00:00:00Z'), load)).toEqual([
      '2026-01',
    ]);
    expect(loads).toEqual([['2025-12-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']]);
    // Another token (the meter's readings changed): read again.
    await keptMonths(results, { ...token, tokens: [{}] }, ...range, load);
    expect(loads).toHaveLength(2);
  });

  it('reads each run of consecutive months not kept with one load, and shares the months on their way', async () => {
    const { results, loads, load } = recorded();
    const token = { tokens: [{}], key: 'y', maxMonths: 12 };
    await keptMonths(results, token, at('2025-03-01T00:00:00Z'), at('2025-04-01T00:00:00Z'), load);
    await keptMonths(results, token, at('2025-07-10T00:00:00Z'), at('2025-09-01T00:00:00Z'), load);
    loads.length = 0;
    const year = [at('2025-01-01T00:00:00Z'), at('2026-01-01T00:00:00Z')] as const;
    // Two requests for the year at once: the second waits for the months the first is reading.
    const [months, again] = await Promise.all([
      keptMonths(results, token, ...year, load),
      keptMonths(results, token, ...year, load),
    ]);
    expect(months).toEqual([...Array(12).keys()].map((m) => `2025-${String(m + 1).padStart(2, '0')}`));
    expect(again).toEqual(months);
    expect(loads).toEqual([
      ['2025-01-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z'],
      ['2025-04-01T00:00:00.000Z', '2025-07-01T00:00:00.000Z'],
      ['2025-09-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z'],
    ]);
  });

  it('keeps none of the months of a load that failed: the next request reads them again', async () => {
    const { results, loads, load } = recorded();
    const token = { tokens: [{}], key: 'f', maxMonths: 12 };
    const range = [at('2025-01-01T00:00:00Z'), at('2025-03-01T00:00:00Z')] as const;
    const failing = async () => {
      throw new Error('connection lost');
    };
    await expect(keptMonths(results, token, ...range, failing)).rejects.toThrow('connection lost');
    expect(await keptMonths(results, token, ...range, load)).toEqual(['2025-01', '2025-02']);
    expect(loads).toEqual([['2025-01-01T00:00:00.000Z', '2025-03-01T00:00:00.000Z']]);
  });

  it('reads nothing past maxMonths, or when nothing is kept', async () => {
    const { results, loads, load } = recorded();
    const range = [at('2026-01-01T00:00:00Z'), at('2026-04-01T00:00:01Z')] as const;
    expect(await keptMonths(results, { tokens: [], key: 'm', maxMonths: 3 }, ...range, load)).toBeNull();
    const none = recorded(0);
    expect(await keptMonths(none.results, { tokens: [], key: 'm', maxMonths: 6 }, ...range, none.load)).toBeNull();
    expect([loads, none.loads]).toEqual([[], []]);
  });

  it('groups items of a range by its UTC months, in order, a month without any empty', () => {
    const items = ['2025-11-30T23:59:59Z', '2026-01-01T00:00:00Z', '2026-01-31T12:00:00Z'];
    expect(groupByMonth(items, Date.parse, new Date('2025-11-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'))).toEqual(
      [['2025-11-30T23:59:59Z'], [], ['2026-01-01T00:00:00Z', '2026-01-31T12:00:00Z']],
    );
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
