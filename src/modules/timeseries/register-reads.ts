import { Decimal } from 'decimal.js';

/** Volumes are spread in whole millilitres (1e-6 kL): the unit bills add (cost engine, money.ts), so a month priced from the spread readings holds exactly the kL its reads say. */
const MICRO_PER_KL = 1_000_000n;

/** A cumulative dial read of a water meter, as stored. */
export interface RegisterRead {
  readAtMs: number;
  /** kL, as a decimal text or number (at most 6 decimals). */
  registerKl: string | number;
  /** The read may be lower than the one before it: the dial passed zero in between. */
  rollover: boolean;
}

/** A read's register in whole 1e-6 kL. */
export const microKl = (registerKl: string | number): bigint =>
  BigInt(new Decimal(registerKl).times(MICRO_PER_KL.toString()).toFixed(0));

/**
 * The kL used from read `before` to read `after`, in 1e-6 kL; null when `after` is lower and not a
 * rollover. Across a rollover the dial counted up to the smallest power of ten above `before`
 * (99,950 kL -> 100,000 kL) and on from zero.
 */
export function consumedMicro(before: RegisterRead, after: RegisterRead): bigint | null {
  const [from, to] = [microKl(before.registerKl), microKl(after.registerKl)];
  if (to >= from) return to - from;
  if (!after.rollover) return null;
  let capacity = MICRO_PER_KL;
  while (capacity <= from) capacity *= 10n;
  return capacity - from + to;
}

/** The first of two consecutive reads whose second is lower without being a rollover, if any (reads by time). */
export function firstLowerRead(reads: readonly RegisterRead[]): number {
  for (let i = 1; i < reads.length; i++) if (consumedMicro(reads[i - 1]!, reads[i]!) === null) return i;
  return -1;
}

/** The volume of one of the meter's intervals, in 1e-6 kL. */
export interface SpreadVolume {
  ts: number;
  micro: bigint;
}

/**
 * The volume of every interval of `intervalMs` (aligned on the epoch) inside [fromMs, toMs) that
 * some span between consecutive reads touches, the span's consumption spread evenly over its time
 * (extensions §13.6): an interval gets the share of each span in proportion to the time they
 * share, in whole 1e-6 kL whose sum over a span is its consumption exactly (each interval's share
 * is the difference of the rounded-down cumulative shares). `reads` are by time and checked
 * (firstLowerRead); intervals between reads with no consumption get 0.
 */
export function spreadVolumes(
  reads: readonly RegisterRead[],
  intervalMs: number,
  fromMs: number,
  toMs: number,
): SpreadVolume[] {
  const volumes = new Map<number, bigint>();
  for (let i = 1; i < reads.length; i++) {
    const [a, b] = [reads[i - 1]!.readAtMs, reads[i]!.readAtMs];
    if (b <= fromMs || a >= toMs) continue;
    const consumed = consumedMicro(reads[i - 1]!, reads[i]!)!;
    const span = BigInt(b - a);
    let before = 0n;
    for (let ts = Math.floor(a / intervalMs) * intervalMs; ts < b; ts += intervalMs) {
      const cumulative = (consumed * BigInt(Math.min(b, ts + intervalMs) - a)) / span;
      if (ts >= fromMs && ts < toMs) volumes.set(ts, (volumes.get(ts) ?? 0n) + cumulative - before);
      before = cumulative;
    }
  }
  return [...volumes].sort(([x], [y]) => x - y).map(([ts, micro]) => ({ ts, micro }));
}

/**
 * The intervals whose volumes the new reads change: from the interval of the read before the
 * earliest new one to the end of the interval of the read after the latest (the edges of the
 * meter's reads where there is none). `reads` are all of the meter's, by time, the new ones among them.
 */
export function changedWindow(
  reads: readonly RegisterRead[],
  isNew: (read: RegisterRead) => boolean,
  intervalMs: number,
) {
  const first = reads.findIndex(isNew);
  let last = reads.length - 1;
  while (!isNew(reads[last]!)) last--;
  const from = reads[Math.max(0, first - 1)]!.readAtMs;
  const to = reads[Math.min(reads.length - 1, last + 1)]!.readAtMs;
  return { fromMs: Math.floor(from / intervalMs) * intervalMs, toMs: Math.ceil(to / intervalMs) * intervalMs };
}
