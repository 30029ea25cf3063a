import type { MeterRow } from './readings.repository.ts';

/** What a meter measures: its readings, queries and bills are of one utility only. */
export type Utility = 'electricity' | 'water';

export type MeterProblem = 'unknown' | 'foreign' | `not-${Utility}`;

/** The meter types whose readings are electricity: they take electricity readings, queries and costs. */
const ELECTRICITY_METER_TYPES: ReadonlySet<string> = new Set(['ELECTRICITY', 'SOLAR', 'GENSET', 'EV', 'HVAC']);

export const isElectricityMeter = (meter: { meter_type: string }) => ELECTRICITY_METER_TYPES.has(meter.meter_type);

/** A WATER meter: readings in kL (its volume is stored where an electricity meter's imported kWh are). */
export const isWaterMeter = (meter: { meter_type: string }) => meter.meter_type === 'WATER';

const IS_OF: Record<Utility, (meter: { meter_type: string }) => boolean> = {
  electricity: isElectricityMeter,
  water: isWaterMeter,
};

/** The utility a meter measures, or null (gas, carbon: nothing is read or billed of them yet). */
export function utilityOf(meter: { meter_type: string }): Utility | null {
  if (isElectricityMeter(meter)) return 'electricity';
  return isWaterMeter(meter) ? 'water' : null;
}

/** Why readings of this meter cannot be stored or queried for accountId as readings of `utility`, if they cannot. */
export function meterProblem(
  meter: MeterRow | undefined,
  accountId: string,
  utility: Utility = 'electricity',
): MeterProblem | undefined {
  if (!meter) return 'unknown';
  if (meter.account_id !== accountId) return 'foreign';
  if (!IS_OF[utility](meter)) return `not-${utility}`;
  return undefined;
}
