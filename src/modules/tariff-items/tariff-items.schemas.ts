import { z } from 'zod';
import { price, recordId, uuid } from '../../http/fields.ts';
import { listQuerySchema } from '../../http/list.ts';
import { ITEM_TYPE_CODES, SEASONS } from '../tariffs/tariff-enums.ts';
import { optionalAccountQuery, tierSet } from './tariff-blocks.schemas.ts';

const itemFields = {
  item_type_code: z.enum(ITEM_TYPE_CODES),
  price: price.describe(
    'Price in the tariff currency per unit of the item type, -1,000,000 to 1,000,000, at most 6 decimals',
  ),
  season: z.enum(SEASONS),
};

const itemInput = z.strictObject({
  ...itemFields,
  season: itemFields.season.default('SUMMER'),
  blocks: tierSet.optional().describe('Tiers of a BLOCK tariff'),
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
