import type { EnergySource, Meter } from '../api/models.ts';

/** Energy sources and meter types in words, never as codes ("Hvac", "Ev"). */

export const SOURCE_LABELS: Record<EnergySource, string> = {
  grid: 'Grid',
  solar: 'Solar',
  genset: 'Generator',
  inverter: 'Inverter',
  load: 'Load',
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

export const meterTypeLabel = (type: Meter['meter_type']) => METER_TYPE_LABELS[type];
