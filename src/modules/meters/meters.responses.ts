import { z } from 'zod';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, isoDate, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';
import { METER_TYPES } from '../tariffs/tariffs.model.ts';
import { INTERVAL_MINUTES } from './meters.schemas.ts';

const meter = z
  .strictObject({
    id: integer,
    account_id: uuidValue,
    building_block_id: integer,
    meter_sn: z.string().describe('Serial number, unique across the whole service'),
    meter_type: z.enum(METER_TYPES),
    name: z.string().nullable(),
    tariff_id: integer.nullable().describe('The tariff that prices the meter'),
    interval_minutes: z.literal(INTERVAL_MINUTES),
    is_active: z.boolean(),
    notified_max_demand_kva: z.number().nullable().describe('Notified maximum demand (NMD) in kVA'),
    installed_on: isoDate
      .nullable()
      .describe("The local date the supply began; null: bills start at the local date of the meter's first reading"),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    examples: [
      {
        id: 1,
        account_id: EXAMPLE.accountId,
        building_block_id: 1,
        meter_sn: 'DEMO-GRID-001',
        meter_type: 'ELECTRICITY',
        name: 'Grid supply',
        tariff_id: 1001,
        interval_minutes: 30,
        is_active: true,
        notified_max_demand_kva: null,
        installed_on: null,
        created_at: EXAMPLE.createdAt,
        updated_at: EXAMPLE.createdAt,
      },
    ],
  });

export const meterResponses = {
  list: listEnvelope(meter, 'A page of meters', 3),
  created: okEnvelope(meter, 'The new meter'),
  meter: okEnvelope(meter, 'The meter'),
};
