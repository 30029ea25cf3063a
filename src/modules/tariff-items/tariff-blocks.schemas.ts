import { z } from 'zod';
import { recordId } from '../../http/fields.ts';
import { tierViolations } from './tiers.ts';

const INT4 = { min: -2_147_483_648, max: 2_147_483_647 };

const blockFields = {
  block_index: z.number().int().min(0).max(INT4.max).describe('0-based tier order, unique per item'),
  upper_limit: z.number().positive().nullable().describe('Upper consumption bound; null for the final unbounded tier'),
  unit_price_cents: z.number().int().min(INT4.min).max(INT4.max).describe('Price per unit within the tier, in cents'),
};

export const blockInput = z.object({
  block_index: blockFields.block_index,
  upper_limit: blockFields.upper_limit.optional(),
  unit_price_cents: blockFields.unit_price_cents.optional(),
});

/** A whole tier set: each tier valid and the tiers consistent with each other (400). */
export const tierSet = z.array(blockInput).superRefine((tiers, ctx) => {
  for (const violation of tierViolations(tiers)) ctx.addIssue({ code: 'custom', ...violation });
});

export const optionalAccountQuery = z.object({
  account_id: z.uuid().optional().describe("Must be the tariff's organization when given"),
});

export const blockParams = z.object({ id: recordId, itemId: recordId, blockId: recordId });

export const updateBlockBody = z.object(blockFields).partial().extend({ account_id: z.uuid().optional() });
export type BlockChanges = z.infer<typeof updateBlockBody>;
