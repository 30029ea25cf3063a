/**
 * Periods from start, each ending a minute earlier than the one before, from end on: a cost asked
 * for such a period is priced, never answered from a bill the service keeps (which reads nothing
 * a held database could hold it at).
 */
export function ownPeriods(start: string, end: string) {
  let periods = 0;
  return () => ({ start, end: new Date(Date.parse(end) - ++periods * 60_000).toISOString() });
}
