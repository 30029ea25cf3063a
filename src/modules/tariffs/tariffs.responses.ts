import { z } from 'zod';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, isoDate, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';
import { dsoRecord, scheduleRecord } from '../reference/reference.model.ts';
import {
  CURRENCIES,
  CUSTOMER_CLASSES,
  DEMAND_BASES,
  ITEM_TYPE_CODES,
  ITEM_UNITS,
  METER_TYPES,
  SEASONS,
  TARIFF_TYPES,
  TOU_PERIODS,
} from './tariff-enums.ts';

/** A tier of a BLOCK item. */
export const tariffBlock = z
  .strictObject({
    id: integer,
    tariff_item_id: integer,
    block_index: integer.describe('0-based tier order'),
    upper_limit: z.number().nullable().describe('Upper bound of the tier in kWh per month; null for the last tier'),
    unit_price_cents: z.number().describe('Price within the tier, in cents per kWh'),
  })
  .meta({ examples: [{ id: 1, tariff_item_id: 100011, block_index: 0, upper_limit: 600, unit_price_cents: 232.31 }] });

/** One of the demo grid tariff's items. */
export const ITEM_EXAMPLE = {
  id: 100004,
  tariff_id: 1001,
  item_type_code: 'TOU_PEAK_ENERGY',
  price: 3.2928,
  season: 'SUMMER',
  unit: null,
  demand_periods: null,
  demand_basis: null,
  free_ratio: null,
  volume_share: null,
  max_kl: null,
  tariff_blocks: [],
};

/** A tariff item as every answer shows it: with its tiers, by block_index. */
export const tariffItemRecord = z
  .strictObject({
    id: integer,
    tariff_id: integer,
    item_type_code: z.enum(ITEM_TYPE_CODES),
    price: z.number().describe('In the tariff currency per unit of the item type'),
    season: z.enum(SEASONS),
    unit: z.enum(ITEM_UNITS).nullable().describe("The item's own unit; null: the unit of its item type"),
    demand_periods: z
      .array(z.enum(TOU_PERIODS))
      .nullable()
      .describe(
        'Items of a TIME_OF_USE tariff: on kVA/month items the periods whose half hours count, on kvarh items the periods whose kvarh and kWh count; null: all',
      ),
    demand_basis: z.enum(DEMAND_BASES).nullable().describe('kVA/month items: what is charged; null: MONTH_MAX'),
    free_ratio: z.number().nullable().describe('kvarh items: the share of the kWh of the month and season not charged'),
    volume_share: z
      .number()
      .nullable()
      .describe('SEWERAGE items: the share of the water volume charged; null: all of it'),
    max_kl: z.number().nullable().describe('SEWERAGE items: the most kL charged in a 30-day month; null: no cap'),
    tariff_blocks: z.array(tariffBlock),
  })
  .meta({ examples: [ITEM_EXAMPLE] });

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
  customer_classes: ['RESIDENTIAL'],
  min_nmd_kva: null,
  max_nmd_kva: 100,
  family: 'eskom-homeflex-1',
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
  has_transition: false,
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
  customer_classes: z
    .array(z.enum(CUSTOMER_CLASSES))
    .nullable()
    .describe('The supplies that may take it, by building_type; null: any'),
  min_nmd_kva: z.number().nullable().describe('The lowest NMD (kVA) of a supply that may take it; null: no bound'),
  max_nmd_kva: z.number().nullable().describe('The highest NMD (kVA) of a supply that may take it; null: no bound'),
  family: z.string().nullable().describe('The name its versions share, each with its own effective dates'),
  created_at: timestamp,
  updated_at: timestamp,
  has_transition: z
    .boolean()
    .describe('Whether the tariff has a transition to a successor: GET /tariffs/{id}/transitions answers 404 when not'),
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
