import type { VersionedResults } from './versioned-results.ts';

/** A UTC month as one number: year * 12 + month (0 to 11). */
export function monthOf(time: number): number {
  const date = new Date(time);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** The instant (ms) a UTC month begins. */
export function startOfMonth(month: number): number {
  return Date.UTC(Math.floor(month / 12), month % 12, 1);
}

/**
 * Data read by whole UTC months and kept by the versions of what it was read from (tokens of
 * ReadCache.version), e.g. a meter's readings: the months covering [from, to) of the data named
 * by key, oldest first, each read by load(its start, the next month's start) the first time it
 * is asked for and kept in results while the tokens are the current ones. Null when [from, to)
 * spans more than maxMonths months, or when results keeps nothing: the caller reads those another
 * way (whole months read for one request would be more than it needs).
 *
 * Months not kept are read one after the other: the rows of a month are parsed on the event loop
 * as they arrive, and a year's months read at once arrived together, holding it for 30 to 80 ms in
 * one piece while other requests waited (docs/PERFORMANCE.md, "A cold year").
 */
export async function keptMonths<V>(
  results: VersionedResults<V>,
  { tokens, key, maxMonths }: { tokens: readonly object[]; key: string; maxMonths: number },
  from: number,
  to: number,
  load: (from: Date, to: Date) => Promise<V>,
): Promise<V[] | null> {
  const first = monthOf(from);
  const count = monthOf(to - 1) - first + 1;
  if (!results.keeps || count > maxMonths) return null;
  const months: V[] = [];
  for (let month = first; month < first + count; month++) {
    months.push(
      await results.get(tokens, `${key}:${month}`, () =>
        load(new Date(startOfMonth(month)), new Date(startOfMonth(month + 1))),
      ),
    );
  }
  return months;
}

/** The index of the first of times (ascending) at or after time, by bisection. */
export function firstAtOrAfter(count: number, timeAt: (index: number) => number, time: number): number {
  let [low, high] = [0, count];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (timeAt(middle) < time) low = middle + 1;
    else high = middle;
  }
  return low;
}
