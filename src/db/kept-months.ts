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
 * by key, oldest first, each kept in results while the tokens are the current ones. The months not
 * kept are read together, each run of consecutive ones by one call of load(its first month's start,
 * the start of the month after its last), which gives one value per month of the run, in order.
 * Null when [from, to) spans more than maxMonths months, or when results keeps nothing: the caller
 * reads those another way (whole months read for one request would be more than it needs).
 *
 * A cold year is one round trip, not 13: sent one after the other, the months' queries were some
 * 300 a second in a flood's first seconds, and writing them to the database's sockets took a
 * seventh of the event loop (measured in the history of docs/PERFORMANCE.md). A run's rows arrive a chunk per turn of the loop (postgres.ts), each
 * month packed in one row (hourly-groups.ts); a request reads one meter's run at a time (a tenant
 * recovery prices its tenants one after the other): four runs arriving at once held the loop
 * 60-200 ms.
 */
export async function keptMonths<V>(
  results: VersionedResults<V>,
  { tokens, key, maxMonths }: { tokens: readonly object[]; key: string; maxMonths: number },
  from: number,
  to: number,
  load: (from: Date, to: Date) => Promise<V[]>,
): Promise<V[] | null> {
  const first = monthOf(from);
  const count = monthOf(to - 1) - first + 1;
  if (!results.keeps || count > maxMonths) return null;
  const months: Promise<V>[] = [];
  for (let month = first; month < first + count; ) {
    const kept = results.kept(tokens, `${key}:${month}`);
    if (kept) {
      months.push(kept);
      month++;
      continue;
    }
    let end = month + 1;
    while (end < first + count && !results.kept(tokens, `${key}:${end}`)) end++;
    const run = load(new Date(startOfMonth(month)), new Date(startOfMonth(end)));
    for (let m = month; m < end; m++) {
      const index = m - month;
      months.push(results.get(tokens, `${key}:${m}`, () => run.then((values) => values[index]!)));
    }
    month = end;
  }
  return Promise.all(months);
}

/**
 * Items of [from, to) (each at timeOf, in ms) grouped by the UTC months of that range, in order:
 * what load gives keptMonths from rows read for a run of months.
 */
export function groupByMonth<T>(items: readonly T[], timeOf: (item: T) => number, from: Date, to: Date): T[][] {
  const first = monthOf(from.getTime());
  const groups = Array.from({ length: monthOf(to.getTime() - 1) - first + 1 }, (): T[] => []);
  for (const item of items) groups[monthOf(timeOf(item)) - first]!.push(item);
  return groups;
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
