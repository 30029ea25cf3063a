import { z } from 'zod';
import { accountQuery, bodyId, dateText, decimal, recordId, text } from '../../http/fields.ts';
import { commonSort, listQuerySchema } from '../../http/list.ts';
import { METER_TYPES } from '../tariffs/tariffs.model.ts';

export const INTERVAL_MINUTES = [5, 10, 15, 30, 60] as const;
const meterType = z.enum(METER_TYPES);

const meterFields = z.strictObject({
  building_block_id: bodyId.describe('Building block of the same organization'),
  meter_sn: text(1, 64).describe('Serial number, unique across the whole service'),
  meter_type: meterType,
  name: text(1, 200).nullable(),
  tariff_id: bodyId.nullable().describe('Tariff of the same organization'),
  interval_minutes: z.literal(INTERVAL_MINUTES).describe('Reading interval; 30 when not given'),
  is_active: z.boolean(),
  notified_max_demand_kva: decimal(0, 1_000_000, 3)
    .nullable()
    .describe(
      'Notified maximum demand (NMD) in kVA, 0 to 1,000,000, at most 3 decimals: what NMD, UTILISED_CAPACITY and EXCESS tariff items charge on. Null: none (counted as 0)',
    ),
  installed_on: dateText(
    "The local date the supply began: no bill charges a day before it. Null: the local date of the meter's first reading",
  ).nullable(),
});

export const createMeterBody = meterFields
  .partial({
    name: true,
    tariff_id: true,
    interval_minutes: true,
    is_active: true,
    notified_max_demand_kva: true,
    installed_on: true,
  })
  .extend(accountQuery.shape);
export type CreateMeter = z.infer<typeof createMeterBody>;

export const updateMeterBody = meterFields.partial().extend(accountQuery.shape);
export type UpdateMeter = z.infer<typeof updateMeterBody>;

export const METER_SORT = commonSort('m', ['meter_sn', 'meter_type', 'building_block_id']);

const meterListQuery = listQuerySchema(METER_SORT).extend({ ...accountQuery.shape, meter_type: meterType.optional() });
export const listMetersQuery = meterListQuery.extend({ building_block_id: recordId.optional() });
export type ListMetersQuery = z.infer<typeof listMetersQuery>;
/** The meters of one building block (the block is in the path). */
export const blockMetersQuery = meterListQuery;
export type BlockMetersQuery = z.infer<typeof blockMetersQuery>;

export const deleteMeterQuery = accountQuery.extend({
  force: z
    .stringbool()
    .default(false)
    // Read from the query's text (true, false, 1, 0, yes, no, on, off), documented as the boolean it is.
    .meta({ type: 'boolean' })
    .describe('Also delete the meter’s readings'),
});
