import { z } from 'zod';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, isoDate, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';
import { dsoRecord, scheduleRecord } from '../reference/reference.responses.ts';
import { ITEM_EXAMPLE, tariffItemRecord } from '../tariff-items/tariff-items.responses.ts';
import { CURRENCIES, METER_TYPES, TARIFF_TYPES } from './tariff-enums.ts';

/** The demo's grid tariff (a clone of the catalogue's Homeflex), as the examples show it. */
export const GRID_TARIFF_EXAMPLE = {
  id: 1001,
  account_id: EXAMPLE.accountId,
  name: 'Eskom Homeflex 1 2025/26',
  description: 'Eskom residential time-of-use tariff for grid-tied customers.',
  dso_id: 1,
  tou_schedule_id: 3,
  meter_type: 'ELECTRICITY',
  tariff_type: 'TIME_OF_USE',
  currency: 'ZAR',
  tax_rate: 15,
  is_active: true,
  effective_from: '2025-04-01',
  effective_to: '2026-03-31',
  timezone: 'Africa/Johannesburg',
  notes: null,
  cloned_from: 6,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
};

const tariffFields = {
  id: integer,
  account_id: uuidValue,
  name: z.string(),
  description: z.string().nullable(),
  dso_id: integer.nullable(),
  tou_schedule_id: integer.nullable().describe('Set on TIME_OF_USE tariffs only'),
  meter_type: z.enum(METER_TYPES),
  tariff_type: z.enum(TARIFF_TYPES),
  currency: z.enum(CURRENCIES),
  tax_rate: z.number().describe('Percentage'),
  is_active: z.boolean(),
  effective_from: isoDate,
  effective_to: isoDate,
  timezone: z.string().describe('IANA time zone of its calendar'),
  notes: z.string().nullable(),
  cloned_from: integer.nullable().describe('The catalogue tariff it was cloned from'),
  created_at: timestamp,
  updated_at: timestamp,
};

/** A tariff as lists show it. */
export const tariffRecord = z.strictObject(tariffFields).meta({ examples: [GRID_TARIFF_EXAMPLE] });

/** A tariff as single reads show it: with its items (each with its tiers) and its DSO. */
export const tariffDetail = z
  .strictObject({
    ...tariffFields,
    tariff_items: z.array(tariffItemRecord).describe('In creation order'),
    dso: dsoRecord.nullable(),
  })
  .meta({
    examples: [
      {
        ...GRID_TARIFF_EXAMPLE,
        tariff_items: [
          ITEM_EXAMPLE,
          {
            ...ITEM_EXAMPLE,
            id: 100009,
            item_type_code: 'SERVICE',
            price: 3.27,
            season: 'ALL_YEAR',
          },
        ],
        dso: { id: 1, name: 'Eskom', tz: 'Africa/Johannesburg' },
      },
    ],
  });

export const tariffResponses = {
  list: listEnvelope(tariffRecord, 'A page of tariffs (without their items)', 1),
  created: okEnvelope(tariffDetail, 'The new tariff'),
  tariff: okEnvelope(tariffDetail, 'The tariff with its items and DSO'),
  schedule: okEnvelope(scheduleRecord, "The tariff's time-of-use schedule with its DSO, seasons and rules"),
};
