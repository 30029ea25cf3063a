export interface TransitionInPeriod {
  predecessor_id: number;
  successor_id: number;
  effective_from: Date;
}

export interface TariffSegment {
  tariffId: number;
  start: Date;
  end: Date;
}

/**
 * Splits [start, end) by the transitions that touch the tariff inside it: the tariff's
 * predecessors price the part before each transition, its successors the part after.
 */
export function tariffSegments(
  tariffId: number,
  start: Date,
  end: Date,
  transitions: TransitionInPeriod[],
): TariffSegment[] {
  const byPredecessor = new Map(transitions.map((t) => [t.predecessor_id, t]));
  const bySuccessor = new Map(transitions.map((t) => [t.successor_id, t]));
  const seen = new Set([tariffId]);
  let first = tariffId;
  for (let t = bySuccessor.get(first); t && !seen.has(t.predecessor_id); t = bySuccessor.get(first)) {
    first = t.predecessor_id;
    seen.add(first);
  }
  const segments: TariffSegment[] = [{ tariffId: first, start, end }];
  const visited = new Set([first]);
  for (let t = byPredecessor.get(first); t && !visited.has(t.successor_id); t = byPredecessor.get(t.successor_id)) {
    const current = segments[segments.length - 1]!;
    if (t.effective_from <= current.start) break;
    current.end = t.effective_from;
    segments.push({ tariffId: t.successor_id, start: t.effective_from, end });
    visited.add(t.successor_id);
  }
  return segments;
}
