/**
 * The energy sources of a building block's dashboard config, as its table's columns name them: each
 * source has a meter column and a tariff column. Several modules read configs (cost, timeseries,
 * transitions, tariff history), so the vocabulary lives with the database, as the roles do.
 */

/** Config fields naming a meter: one per energy source, and the water supply's. */
export const METER_FIELDS = [
  'grid_meter_id',
  'solar_meter_id',
  'genset_meter_id',
  'inverter_meter_id',
  'load_meter_id',
  'water_supply_meter_id',
] as const;
/** The energy sources a config prices, each with a meter field and a tariff field. */
export const SOURCES = ['grid', 'solar', 'genset', 'inverter', 'load'] as const;
export type Source = (typeof SOURCES)[number];

/** The config field naming the tariff that prices a source. */
export const tariffField = <S extends Source>(source: S): `${S}_tariff_id` => `${source}_tariff_id`;

/** Config fields naming the tariff that prices a source. */
export const TARIFF_FIELDS = SOURCES.map(tariffField);
