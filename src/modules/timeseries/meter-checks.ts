import type { MeterRow } from './readings.repository.ts';

export type MeterProblem = 'unknown' | 'foreign' | 'not-electricity';

/** Why readings of this meter cannot be stored or queried for accountId, if they cannot. */
export function meterProblem(meter: MeterRow | undefined, accountId: string): MeterProblem | undefined {
  if (!meter) return 'unknown';
  if (meter.account_id !== accountId) return 'foreign';
  if (meter.meter_type !== 'ELECTRICITY') return 'not-electricity';
  return undefined;
}
