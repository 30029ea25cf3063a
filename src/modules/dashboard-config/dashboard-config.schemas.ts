import { z } from 'zod';
import { bodyId, uuid } from '../../http/fields.ts';

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
    .meta({ uniqueItems: true })
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
