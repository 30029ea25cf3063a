import { z } from 'zod';
import { accountQuery, bodyId, dateTimeText, recordIdParams, storable, uuid } from '../../http/fields.ts';

export { accountQuery };
export const tariffIdParams = recordIdParams('Tariff');

const effectiveFrom = dateTimeText('The instant from which the successor applies');

export const createTransitionBody = z.strictObject({
  account_id: uuid,
  successor_id: bodyId.describe('Tariff that replaces the predecessor (same organization)'),
  effective_from: effectiveFrom,
  notes: storable(z.string().max(2000)).optional(),
});
export type CreateTransitionBody = z.infer<typeof createTransitionBody>;

export const updateTransitionBody = z.strictObject({
  account_id: uuid,
  successor_id: bodyId.optional(),
  effective_from: effectiveFrom.optional(),
  notes: storable(z.string().max(2000)).optional(),
});
export type UpdateTransitionBody = z.infer<typeof updateTransitionBody>;
