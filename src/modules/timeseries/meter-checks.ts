import type { MeterRow } from './readings.repository.ts';

export type MeterProblem = 'unknown' | 'foreign' | 'not-electricity';

/** The meter types whose readings are electricity: they take electricity readings, queries and costs. */
const ELECTRICITY_METER_TYPES: ReadonlySet<string> = new Set(['ELECTRICITY', 'SOLAR', 'GENSET', 'EV', 'HVAC']);

export const isElectricityMeter = (meter: { meter_type: string }) => ELECTRICITY_METER_TYPES.has(meter.meter_type);

/** Why readings of this meter cannot be stored or queried for accountId, if they cannot. */
export function meterProblem(meter: MeterRow | undefined, accountId: string): MeterProblem | undefined {
  if (!meter) return 'unknown';
  if (meter.account_id !== accountId) return 'foreign';
  if (!isElectricityMeter(meter)) return 'not-electricity';
  return undefined;
}
