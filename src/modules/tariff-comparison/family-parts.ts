import { localMidnight } from '../../lib/local-dates.ts';
import { DAY_MS } from '../../lib/time-zone.ts';
import type { PricedPart } from '../cost/cost.service.ts';
import type { TariffVersion } from '../tariffs/tariffs.model.ts';

/** The instants a version's effective dates (local, inclusive) hold: [from, to). */
function heldBy(version: TariffVersion): { id: number; from: number; to: number } {
  return {
    id: version.id,
    from: localMidnight(version.timezone, version.effective_from),
    to: localMidnight(version.timezone, version.effective_to) + DAY_MS,
  };
}

/**
 * The parts of [start, end) and the version of the family that prices each (extensions §13.1):
 * each instant by the version whose effective dates hold it, else by the named tariff (whose bill
 * then warns of its dates). Adjacent parts of one version are one part.
 */
export function partsThroughFamily(
  named: TariffVersion,
  versions: readonly TariffVersion[],
  start: Date,
  end: Date,
): PricedPart[] {
  const held = versions.map(heldBy).sort((a, b) => a.from - b.from);
  const parts: PricedPart[] = [];
  const add = (tariffId: number, from: number, to: number) => {
    if (from >= to) return;
    const last = parts.at(-1);
    if (last?.tariffId === tariffId && last.end.getTime() === from) last.end = new Date(to);
    else parts.push({ tariffId, start: new Date(from), end: new Date(to) });
  };
  let at = start.getTime();
  const endMs = end.getTime();
  for (const version of held) {
    if (version.to <= at) continue;
    if (version.from >= endMs) break;
    add(named.id, at, Math.min(version.from, endMs));
    at = Math.max(at, version.from);
    add(version.id, at, Math.min(version.to, endMs));
    at = Math.min(version.to, endMs);
  }
  add(named.id, at, endMs);
  return parts;
}
