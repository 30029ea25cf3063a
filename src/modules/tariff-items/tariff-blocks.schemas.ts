import { z } from 'zod';
import { decimal, priceCents, recordId, uuid } from '../../http/fields.ts';
import { checkTierRules } from '../tariffs/tariffs.model.ts';

const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };

const blockFields = {
  block_index: z.number().int().min(0).max(INT4.max).describe('0-based tier order, unique per item'),
  // Bounded so that a limit in millionths stays an exact integer in a double (below 2^53).
  upper_limit: decimal(0, 1_000_000_000, 6)
    .nullable()
    .describe('Upper consumption bound, 0 to 1,000,000,000 with up to 6 decimals; null for the final unbounded tier'),
  unit_price_cents: priceCents.describe(
    'Price per unit within the tier, in cents with up to 4 decimals, 0 to 100,000,000',
  ),
};

const blockInput = z.strictObject({
  block_index: blockFields.block_index,
  upper_limit: blockFields.upper_limit.optional(),
  unit_price_cents: blockFields.unit_price_cents.optional(),
});

/** A whole tier set: each tier valid and the tiers consistent with each other (400). */
export const tierSet = z
  .array(blockInput)
  .meta({ uniqueItems: true, description: 'Each block_index at most once (a repeated one: 400)' })
  .superRefine(checkTierRules);

export const optionalAccountQuery = z.object({
  account_id: uuid.optional().describe("Must be the tariff's organization when given"),
});

export const blockParams = z.object({
  id: recordId,
  itemId: recordId,
  blockId: recordId.describe(
    "A tier's id, from GET /api/v1/tariffs/{id}/items/{itemId}/blocks (the demo's time-of-use tariffs have no tiers: the example is a placeholder)",
  ),
});

export const updateBlockBody = z.strictObject(blockFields).partial().extend({ account_id: uuid.optional() });
export type BlockChanges = z.infer<typeof updateBlockBody>;
