import { z } from 'zod';
import { decimal, price, recordId, recordIdParams, uuid } from '../../http/fields.ts';
import { listQuerySchema } from '../../http/list.ts';
import {
  DEMAND_BASES,
  ITEM_TYPE_CODES,
  ITEM_UNITS,
  type Period,
  SEASONS,
  TOU_PERIODS,
} from '../tariffs/tariffs.model.ts';
import { optionalAccountQuery, tierSet } from './tariff-blocks.schemas.ts';

export const tariffIdParams = recordIdParams('Tariff');

/** A set of periods, read back in the order PEAK, STANDARD, OFF_PEAK. */
const periodSet = z
  .array(z.enum(TOU_PERIODS))
  .min(1)
  .meta({ uniqueItems: true })
  .refine((periods) => new Set(periods).size === periods.length, 'Each period at most once')
  .transform((periods): Period[] => TOU_PERIODS.filter((period) => periods.includes(period)));

/** The fields of extensions §11.5: null (or absent on create) leaves the item as it was priced before them. */
const demandFields = {
  unit: z
    .enum(ITEM_UNITS)
    .nullable()
    .describe(
      'What price is per: kWh, kvarh, kVA/month (per kVA of demand per month), day, month or kL (water and sewerage). Null: the unit of the item type (an item type in kVA is per kVA/month)',
    ),
  demand_periods: periodSet
    .nullable()
    .describe(
      'Time-of-use periods, each at most once (read back in the order PEAK, STANDARD, OFF_PEAK): on a kVA/month item the periods whose half hours count for its demand; on a kvarh item the periods whose kvarh are charged, above free_ratio x the kWh of the same periods. Only on kVA/month and kvarh items of a TIME_OF_USE tariff. Null: all periods',
    ),
  demand_basis: z
    .enum(DEMAND_BASES)
    .nullable()
    .describe(
      "The demand a kVA/month item charges: MONTH_MAX (the month's highest half-hour demand in demand_periods), NMD (the meter's notified_max_demand_kva), UTILISED_CAPACITY (the higher of the NMD and the MONTH_MAX of the 12 calendar months ending with the billed one), EXCESS (MONTH_MAX above the NMD, else 0). Only on kVA/month items. Null: MONTH_MAX",
    ),
  free_ratio: decimal(0, 1, 4)
    .nullable()
    .describe(
      'Only on kvarh items, 0 to 1, at most 4 decimals: only the kvarh above free_ratio x the kWh of the same month and season (and demand_periods, when set) is charged. Null: all kvarh',
    ),
  volume_share: decimal(0, 1, 4)
    .nullable()
    .describe(
      'Only on SEWERAGE items, 0 to 1, at most 4 decimals: the share of the water volume charged as sewage (0.7: 70 %). Null: all of it',
    ),
  max_kl: decimal(0, 1_000_000_000, 3)
    .nullable()
    .describe(
      'Only on SEWERAGE items: the most kL of sewage charged in a 30-day month (a part month in proportion to its days). Null: no cap',
    ),
};

const itemFields = {
  item_type_code: z.enum(ITEM_TYPE_CODES),
  price: price.describe(
    "Price in the tariff currency per unit (the item's unit, else its item type's), -1,000,000 to 1,000,000, at most 6 decimals",
  ),
  season: z.enum(SEASONS),
  ...demandFields,
};

const itemInput = z
  .strictObject({
    ...itemFields,
    season: itemFields.season.default('SUMMER'),
    blocks: tierSet.optional().describe('Tiers of a BLOCK tariff'),
  })
  .partial({
    unit: true,
    demand_periods: true,
    demand_basis: true,
    free_ratio: true,
    volume_share: true,
    max_kl: true,
  });

const singleItem = itemInput.extend({ account_id: uuid.optional() });
const itemList = z.array(itemInput).min(1);
export type CreateItemsBody = z.infer<typeof singleItem> | z.infer<typeof itemList>;

/** The JSON schema of what a client sends, for the API reference. */
function inputJsonSchema(schema: z.ZodType) {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input' });
  return jsonSchema;
}

/**
 * One item object (which may carry account_id) or an array of items. Validated by the shape that
 * was sent, so that errors name its fields (a zod union would only say "Invalid input").
 */
export const createItemsBody = z
  .unknown()
  .transform((body, ctx): CreateItemsBody => {
    const result = (Array.isArray(body) ? itemList : singleItem).safeParse(body);
    if (result.success) return result.data;
    // Passed on as they are: an unknown key keeps its code, so that each key is named in the answer.
    for (const issue of result.error.issues) ctx.addIssue(issue as z.core.$ZodRawIssue);
    return z.NEVER;
  })
  .meta({ description: 'One item or an array of items', ...inputJsonSchema(z.union([singleItem, itemList])) });

export const updateItemBody = z.strictObject(itemFields).partial().extend({ account_id: uuid.optional() });
export type ItemChanges = z.infer<typeof updateItemBody>;

export const ITEM_SORT = {
  created_at: 'i.created_at',
  updated_at: 'i.updated_at',
  id: 'i.id',
  item_type_code: 'i.item_type_code',
  season: 'i.season',
  price: 'i.price',
} as const;

export const itemListQuery = listQuerySchema(ITEM_SORT).extend(optionalAccountQuery.shape);
export const itemParams = z.object({ id: recordId, itemId: recordId });
