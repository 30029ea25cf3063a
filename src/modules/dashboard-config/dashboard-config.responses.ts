import { z } from 'zod';
import { METER_FIELDS, TARIFF_FIELDS } from '../../db/energy-sources.ts';
import { integer, okEnvelope, timestamp } from '../../http/responses.ts';

const nullableIds = (fields: readonly string[], description: string) =>
  Object.fromEntries(fields.map((field) => [field, integer.nullable().describe(description)]));

const DEMO_CONFIG = {
  building_block_id: 1,
  grid_meter_id: 1,
  solar_meter_id: 2,
  genset_meter_id: null,
  inverter_meter_id: null,
  load_meter_id: 3,
  water_supply_meter_id: null,
  submeter_ids: null,
  grid_tariff_id: 1001,
  solar_tariff_id: null,
  genset_tariff_id: null,
  inverter_tariff_id: null,
  load_tariff_id: null,
  water_supply_tariff_id: null,
  created_at: '2026-11-23T08:00:00.000Z',
  updated_at: '2026-11-23T08:00:00.000Z',
};

const config = z
  .strictObject({
    building_block_id: integer,
    ...nullableIds(METER_FIELDS, 'The meter of this source, or null'),
    submeter_ids: z.array(integer).nullable().describe('Further meters'),
    ...nullableIds(TARIFF_FIELDS, 'The tariff that prices this source, or null'),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ examples: [DEMO_CONFIG] });

export const configResponses = {
  config: okEnvelope(config, "The block's energy dashboard config"),
};
