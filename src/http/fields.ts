import { z } from 'zod';

const INT4_MAX = 2_147_483_647;

/** A serial id in a JSON body. */
export const bodyId = z.number().int().positive().max(INT4_MAX);
/** A serial id in a path or query (coerced from text). */
export const recordId = z.coerce.number().int().positive().max(INT4_MAX);

export const idParams = z.object({ id: recordId });
export const accountQuery = z.object({ account_id: z.uuid() });

/** Trimmed text that PostgreSQL can store (it rejects the NUL character). */
export function text(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'Must not contain the NUL character');
}
