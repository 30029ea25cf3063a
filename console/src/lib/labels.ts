import type { BillSource, Meter } from '../api/models.ts';

/** Sources (energy and the water supply) and meter types in words, never as codes ("Hvac", "Ev"). */

export const SOURCE_LABELS: Record<BillSource, string> = {
  grid: 'Grid',
  solar: 'Solar',
  genset: 'Generator',
  inverter: 'Inverter',
  load: 'Load',
  water: 'Water supply',
};

const METER_TYPE_LABELS: Record<Meter['meter_type'], string> = {
  ELECTRICITY: 'Electricity',
  WATER: 'Water',
  GAS: 'Gas',
  SOLAR: 'Solar',
  GENSET: 'Generator',
  HVAC: 'HVAC',
  CARBON: 'Carbon',
  EV: 'EV charger',
};

/** Every meter type, in the order of their labels. */
export const METER_TYPES = Object.keys(METER_TYPE_LABELS) as Meter['meter_type'][];

export const meterTypeLabel = (type: Meter['meter_type']) => METER_TYPE_LABELS[type];
