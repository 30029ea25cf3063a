/** A record of a source's tariff history: the tariff (null: none) from effective_from (null: the beginning of time). */
export interface TariffRecord {
  tariff_id: number | null;
  effective_from: Date | null;
}

/** A transition not applied yet. */
export interface PendingTransition {
  predecessor_id: number;
  successor_id: number;
  effective_from: Date;
}

interface TariffSegment {
  tariffId: number;
  start: Date;
  end: Date;
}

/** From `from` (ms; -Infinity: the beginning of time) on, the source has tariffId. */
interface Change {
  tariffId: number | null;
  from: number;
}

function recordedChanges(records: TariffRecord[]): Change[] {
  let from = Number.NEGATIVE_INFINITY;
  return records.map((record) => {
    from = Math.max(from, record.effective_from?.getTime() ?? from);
    return { tariffId: record.tariff_id, from };
  });
}

/**
 * What applying the pending transitions will record after the last record: the transition of the
 * current tariff, then that of its successor and so on, as long as each takes effect no earlier
 * than the one before (the order in which they are applied). Each takes effect at its
 * effective_from, or at the instant of the change before it if that is later.
 */
function pendingChanges(last: Change, pending: PendingTransition[]): Change[] {
  const byPredecessor = new Map(pending.map((t) => [t.predecessor_id, t]));
  const changes: Change[] = [];
  const seen = new Set([last.tariffId]);
  let current = last;
  let effective = Number.NEGATIVE_INFINITY;
  for (let t = byPredecessor.get(current.tariffId ?? Number.NaN); t; t = byPredecessor.get(t.successor_id)) {
    if (seen.has(t.successor_id) || t.effective_from.getTime() < effective) break;
    effective = t.effective_from.getTime();
    current = { tariffId: t.successor_id, from: Math.max(effective, current.from) };
    changes.push(current);
    seen.add(t.successor_id);
  }
  return changes;
}

/**
 * The tariff of each instant of [start, end): the one recorded for it in the source's history
 * (records oldest first), and after the last record the successors of the pending transitions of
 * the current tariff. Parts without a tariff are left out; adjacent parts with one tariff are one
 * segment.
 */
export function tariffSegments(
  records: TariffRecord[],
  pending: PendingTransition[],
  start: Date,
  end: Date,
): TariffSegment[] {
  const recorded = recordedChanges(records);
  const last = recorded.at(-1);
  const changes = last ? [...recorded, ...pendingChanges(last, pending)] : [];
  const segments: TariffSegment[] = [];
  changes.forEach((change, i) => {
    const from = Math.max(change.from, start.getTime());
    const to = Math.min(changes[i + 1]?.from ?? Number.POSITIVE_INFINITY, end.getTime());
    if (change.tariffId === null || from >= to) return;
    const previous = segments.at(-1);
    if (previous?.tariffId === change.tariffId && previous.end.getTime() === from) previous.end = new Date(to);
    else segments.push({ tariffId: change.tariffId, start: new Date(from), end: new Date(to) });
  });
  return segments;
}
