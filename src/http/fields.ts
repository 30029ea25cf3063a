import { z } from 'zod';

export const INT4_MAX = 2_147_483_647;

/**
 * A uuid (account_id, user and organization ids) in any case, lower-cased before any use: access
 * checks, cache keys, comparisons and storage all see one spelling.
 */
export const uuid = z.uuid().toLowerCase();

export const NOT_PLAIN_DIGITS = 'Must be a whole number in plain decimal digits';

const PLAIN_DIGITS = /^(0|[1-9][0-9]*)$/;

/**
 * An integer in a path or query: plain decimal digits (`12`) only. Number() would also read signs,
 * leading zeros, exponents, hex, fractions and blanks as the same integer. Documented as an integer.
 */
export function integerParam(min: number, max: number) {
  return z.preprocess((value, ctx) => {
    if (typeof value === 'string' && PLAIN_DIGITS.test(value)) return Number(value);
    ctx.issues.push({ code: 'custom', message: NOT_PLAIN_DIGITS, input: value });
    return value;
  }, z.number().int().min(min).max(max));
}

/** A serial id in a JSON body. */
export const bodyId = z.number().int().positive().max(INT4_MAX);
/** A serial id in a path or query. */
export const recordId = integerParam(1, INT4_MAX);

export const idParams = z.object({ id: recordId });
/** Path parameters of one record: its id, described as `<what> id`. */
export const recordIdParams = (what: string) => z.object({ id: recordId.describe(`${what} id`) });
export const accountQuery = z.object({ account_id: uuid });

/** Trimmed text that PostgreSQL can store (it rejects the NUL character). */
export function text(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((value) => !value.includes('\u0000'), 'Must not contain the NUL character');
}

/**
 * A number within [min, max] with at most `places` decimals. A number out of bounds is reported
 * as such only (its decimals are then beside the point).
 */
export function decimal(min: number, max: number, places: number) {
  const scale = 10 ** places;
  return z
    .number()
    .min(min)
    .max(max)
    .refine((n) => n < min || n > max || Math.round(n * scale) / scale === n, `Must have at most ${places} decimals`);
}

/** An item price, in the tariff's currency per unit. */
export const price = decimal(-1_000_000, 1_000_000, 6);
/** A tier price in cents, with up to 4 decimals of a cent as the column stores them. */
export const priceCents = decimal(0, 100_000_000, 4);

export const MAX_JSON_DEPTH = 32;

/** The nesting depth of a parsed JSON value, counted without recursion; stops once it exceeds limit. */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > limit) return true;
    for (const child of Object.values(node)) pending.push([child, depth + 1]);
  }
  return false;
}

/** A JSON object of free-form data, at most MAX_JSON_DEPTH levels deep (itself level 1). */
export const jsonObject = z
  .record(z.string(), z.unknown())
  .refine(
    (value) => !jsonDepthExceeds(value, MAX_JSON_DEPTH),
    `Must not be nested deeper than ${MAX_JSON_DEPTH} levels`,
  );

/** The credentials of a new user: sign-up, and the service role's user creation. */
export const credentialsBody = z.strictObject({
  email: z
    .email()
    .max(254)
    .transform((e) => e.toLowerCase())
    .describe('E-mail address (stored lower-case)'),
  password: z.string().min(8).max(128).describe('8 to 128 characters'),
});
