import { z } from 'zod';
import { integer, listEnvelope, okEnvelope } from '../../http/responses.ts';
import { DEMAND_BASES, ITEM_TYPE_CODES, ITEM_UNITS, SEASONS, TOU_PERIODS } from '../tariffs/tariff-enums.ts';

const tariffBlock = z
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
    tariff_blocks: z.array(tariffBlock),
  })
  .meta({ examples: [ITEM_EXAMPLE] });

export const tariffItemResponses = {
  list: listEnvelope(tariffItemRecord, "A page of the tariff's items", 10),
  created: okEnvelope(z.array(tariffItemRecord), 'The new items, in the order sent'),
  item: okEnvelope(tariffItemRecord, 'The item'),
};

export const tariffBlockResponses = {
  list: listEnvelope(tariffBlock, "The item's tiers, by block_index", 1),
  replaced: okEnvelope(z.array(tariffBlock), "The item's new tiers, by block_index"),
  block: okEnvelope(tariffBlock, 'The tier'),
};
