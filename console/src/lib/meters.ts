import type { Meter } from '../api/models.ts';

/** Meter types whose readings the electricity timeseries stores (extensions §11.1). */
const ELECTRICITY_DATA = new Set(['ELECTRICITY', 'SOLAR', 'GENSET', 'EV', 'HVAC']);

export function hasElectricityData(meter: Pick<Meter, 'meter_type'>): boolean {
  return ELECTRICITY_DATA.has(meter.meter_type);
}

export function meterLabel(meter: Pick<Meter, 'name' | 'meter_sn'>): string {
  return meter.name ? `${meter.name} (${meter.meter_sn})` : meter.meter_sn;
}
