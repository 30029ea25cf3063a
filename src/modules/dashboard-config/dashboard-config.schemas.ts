import { z } from 'zod';
import { bodyId, uuid } from '../../http/fields.ts';

/** Config fields naming a meter: one per energy source. */
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

const meterId = bodyId.nullable().optional().describe('Meter of the same organization, or null');
const tariffId = bodyId.nullable().optional().describe('Tariff of the same organization, or null');

export const upsertConfigBody = z.strictObject({
  account_id: uuid,
  grid_meter_id: meterId,
  solar_meter_id: meterId,
  genset_meter_id: meterId,
  inverter_meter_id: meterId,
  load_meter_id: meterId,
  water_supply_meter_id: meterId,
  submeter_ids: z
    .array(bodyId)
    .max(1000)
    .refine((ids) => new Set(ids).size === ids.length, 'Must not name a meter twice')
    .nullable()
    .optional()
    .describe('Further meters of the same organization'),
  grid_tariff_id: tariffId,
  solar_tariff_id: tariffId,
  genset_tariff_id: tariffId,
  inverter_tariff_id: tariffId,
  load_tariff_id: tariffId,
});
export type UpsertConfig = z.infer<typeof upsertConfigBody>;
export type ConfigValues = Omit<UpsertConfig, 'account_id'>;
