import type { BillSource, Meter } from '../api/models.ts';

/** Meter types whose readings the electricity timeseries stores (extensions §11.1). */
const ELECTRICITY_DATA = new Set(['ELECTRICITY', 'SOLAR', 'GENSET', 'EV', 'HVAC']);

export function hasElectricityData(meter: Pick<Meter, 'meter_type'>): boolean {
  return ELECTRICITY_DATA.has(meter.meter_type);
}

export function meterLabel(meter: Pick<Meter, 'name' | 'meter_sn'>): string {
  return meter.name ? `${meter.name} (${meter.meter_sn})` : meter.meter_sn;
}

/** The meter type a dashboard source measures, where it has one of its own (the others take any electricity meter). */
const SOURCE_METER_TYPES: Partial<Record<BillSource, Meter['meter_type']>> = {
  grid: 'ELECTRICITY',
  solar: 'SOLAR',
  genset: 'GENSET',
  water: 'WATER',
};

/** Whether a meter may measure a dashboard source: grid, solar, generator and water their own type, inverter and load any electricity meter. */
export function measuresSource(source: BillSource, meter: Pick<Meter, 'meter_type'>): boolean {
  const type = SOURCE_METER_TYPES[source];
  return type ? meter.meter_type === type : hasElectricityData(meter);
}
