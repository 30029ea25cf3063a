/**
 * The sources of a building block's dashboard config, as its table's columns name them: each
 * source has a meter column and a tariff column. Several modules read configs (cost, timeseries,
 * transitions, tariff history), so the vocabulary lives with the database, as the roles do.
 */

/** The electricity sources of a config (energy profiles and tariff comparisons are of these). */
export const ENERGY_SOURCES = ['grid', 'solar', 'genset', 'inverter', 'load'] as const;
export type EnergySource = (typeof ENERGY_SOURCES)[number];

/** The sources a config prices, each with a meter field and a tariff field: the energy sources and the water supply. */
export const SOURCES = [...ENERGY_SOURCES, 'water'] as const;
export type Source = (typeof SOURCES)[number];

type FieldOf<S extends Source, Kind extends string> = S extends 'water' ? `water_supply_${Kind}` : `${S}_${Kind}`;

/** The config field naming the meter of a source. */
export const meterField = <S extends Source>(source: S) =>
  (source === 'water' ? 'water_supply_meter_id' : `${source}_meter_id`) as FieldOf<S, 'meter_id'>;

/** The config field naming the tariff that prices a source. */
export const tariffField = <S extends Source>(source: S) =>
  (source === 'water' ? 'water_supply_tariff_id' : `${source}_tariff_id`) as FieldOf<S, 'tariff_id'>;

/** Config fields naming a meter: one per source. */
export const METER_FIELDS = SOURCES.map(meterField);

/** Config fields naming the tariff that prices a source. */
export const TARIFF_FIELDS = SOURCES.map(tariffField);
