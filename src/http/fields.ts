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

/**
 * An e-mail address: zod's practical rule with a local part of at most 64 characters (RFC 5321)
 * and a domain of host names (no label starts or ends with a hyphen, RFC 1123), so that every
 * address accepted is one that `format: email` accepts. The API reference shows the rule as the
 * field's pattern.
 */
const EMAIL =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;
export const email = z.email({ pattern: EMAIL }).max(254);

export const idParams = z.object({ id: recordId });
/** Path parameters of one record: its id, described as `<what> id`. */
export const recordIdParams = (what: string) => z.object({ id: recordId.describe(`${what} id`) });
export const accountQuery = z.object({ account_id: uuid });

const NUL_REFUSED = 'Must not contain the NUL character';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL character is what it refuses.
const WITHOUT_NUL = /^[^\u0000]*$/;

/** Text that PostgreSQL can store: it rejects the NUL character (documented as the field's pattern). */
export function storable(schema: z.ZodString) {
  return schema.regex(WITHOUT_NUL, NUL_REFUSED);
}

/** Trimmed text that PostgreSQL can store. */
export function text(min: number, max: number) {
  return storable(z.string().trim().min(min).max(max));
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

/**
 * The largest amount of money the service answers or stores, in magnitude (extensions §13.8): to
 * the cent it has at most 15 significant digits, so a JSON number (a double) gives back that cent.
 * Beyond 2^53 cents a double holds no cent at all, and already from 10^13 on about a third of the
 * amounts to the cent would come back as a neighbouring cent.
 */
export const MAX_MONEY = 9_999_999_999_999.99;
/** An amount of money to the cent, within ±MAX_MONEY. */
export const money = decimal(-MAX_MONEY, MAX_MONEY, 2);

/** An item price, in the tariff's currency per unit. */
export const price = decimal(-1_000_000, 1_000_000, 6);
/** A tier price in cents, with up to 4 decimals of a cent as the column stores them. */
export const priceCents = decimal(0, 100_000_000, 4);

/**
 * A JSON object of free-form data. As a body's field it nests at most MAX_JSON_DEPTH levels
 * (itself level 1): the body's text is checked before it is parsed (`json-body.ts`).
 */
/** Where a JSON value first holds the NUL character, in a key or a string (jsonb cannot store it); null where it holds none. */
function nulAt(value: unknown, path: PropertyKey[]): PropertyKey[] | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (key.includes('\u0000')) return at;
    const found = nulAt(inner, at);
    if (found) return found;
  }
  return null;
}

/** A free-form JSON object (bodies are at most 32 levels deep); a NUL character in it is refused, naming where. */
export const jsonObject = z.record(z.string(), z.unknown()).superRefine((value, context) => {
  const path = nulAt(value, []);
  if (path) context.addIssue({ code: 'custom', path, message: NUL_REFUSED });
});

/** The credentials of a new user: sign-up, and the service role's user creation. */
export const credentialsBody = z.strictObject({
  email: email.transform((e) => e.toLowerCase()).describe('E-mail address (stored lower-case)'),
  password: z.string().min(8).max(128).describe('8 to 128 characters'),
});

/*
 * Dates and date-times: one reading for every field of a body or a query (extensions §12.1).
 * A date-time is ISO 8601 with seconds and Z or an offset of at most ±15:59 (the offsets
 * PostgreSQL reads); it names an instant from 1900-01-01T00:00:00Z up to, not including,
 * 9999-01-01T00:00:00Z, so that a local calendar of any zone around it stays within four-digit
 * years. A date is YYYY-MM-DD of the years 1900 to 9999.
 */

const EARLIEST_INSTANT = Date.UTC(1900, 0, 1);
const END_OF_INSTANTS = Date.UTC(9999, 0, 1);
const EARLIEST_YEAR = 1900;
/** The largest offset of a date-time, in minutes: 15:59. */
export const MAX_OFFSET_MINUTES = 15 * 60 + 59;

const OUTSIDE_YEARS = 'Must be between 1900 and 9999';
const OFFSET_TOO_FAR = 'The offset must be between -15:59 and +15:59';
/** The rule of a date-time field, for its description in the API reference. */
export const DATE_TIME_RULE =
  'ISO 8601 date-time with seconds and Z or an offset within ±15:59, from 1900-01-01T00:00:00Z up to (not including) 9999-01-01T00:00:00Z';
/** The rule of a date field, for its description in the API reference. */
const DATE_RULE = 'YYYY-MM-DD, a year from 1900 to 9999';

const DATE_SOURCE = z.regexes.date.source.slice(1, -1);
/** The time of a date-time and its zone: Z or an offset of at most ±15:59. */
const TIME_SOURCE = 'T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:0\\d|1[0-5]):[0-5]\\d)';
/** The texts a date-time field takes as far as a pattern can tell (the instant's bounds aside). */
export const DATE_TIME_PATTERN = new RegExp(`^${DATE_SOURCE}${TIME_SOURCE}$`);
/**
 * The years of the rules as the documented patterns state them: a date of 1900 to 9999; a
 * date-time of 1900 to 9998, or on the two days whose offset decides (1899-12-31, 9999-01-01).
 */
const DATE_YEARS = '(?=19|[2-9])';
const DATE_TIME_YEARS = '(?=1899-12-31T|19\\d\\d-|[2-8]\\d{3}-|9[0-8]\\d\\d-|99[0-8]\\d-|999[0-8]-|9999-01-01T)';
/** The shape of a date-time whatever its offset's hours: a text of this shape beyond ±15:59 is told so. */
const ANY_OFFSET_DATE_TIME = z.regexes.datetime({ offset: true });

export function isWithinInstantRange(time: Date | number): boolean {
  const ms = Number(time);
  return ms >= EARLIEST_INSTANT && ms < END_OF_INSTANTS;
}

/** What is wrong with a date-time text (its format, its offset, its instant), or undefined. */
export function dateTimeIssue(text: string): 'format' | 'offset' | 'range' | undefined {
  if (!DATE_TIME_PATTERN.test(text)) return ANY_OFFSET_DATE_TIME.test(text) ? 'offset' : 'format';
  return isWithinInstantRange(Date.parse(text)) ? undefined : 'range';
}

function dateTimeProblem(text: string, formatMessage: string): string | undefined {
  const issue = dateTimeIssue(text);
  return issue && { format: formatMessage, offset: OFFSET_TOO_FAR, range: OUTSIDE_YEARS }[issue];
}

function dateProblem(text: string, formatMessage: string): string | undefined {
  if (!z.regexes.date.test(text)) return formatMessage;
  return Number(text.slice(0, 4)) < EARLIEST_YEAR ? OUTSIDE_YEARS : undefined;
}

/** A text that `problem` finds nothing wrong with; else one issue, its message. */
function checkedText(problem: (text: string) => string | undefined) {
  return z.string().superRefine((text, ctx) => {
    const message = problem(text);
    if (message) ctx.addIssue({ code: 'custom', message, input: text });
  });
}

/**
 * A date-time field as text, read by the rule above. `description` is the field's own (the rule is
 * added to it); `formatMessage` says what a text of another shape is (zod's words by default).
 */
export function dateTimeText(description: string, formatMessage = 'Invalid ISO datetime') {
  return checkedText((text) => dateTimeProblem(text, formatMessage)).meta({
    format: 'date-time',
    pattern: `^${DATE_TIME_YEARS}${DATE_TIME_PATTERN.source.slice(1)}`,
    description: `${description}. ${DATE_TIME_RULE}`,
  });
}

/** A date-time field read as the Date it names. */
export function dateTime(description: string, formatMessage?: string) {
  return dateTimeText(description, formatMessage).transform((text) => new Date(text));
}

/** A date field, YYYY-MM-DD, as text. */
export function dateText(description: string, formatMessage = 'Invalid ISO date') {
  return checkedText((text) => dateProblem(text, formatMessage)).meta({
    format: 'date',
    pattern: `^${DATE_YEARS}${z.regexes.date.source.slice(1)}`,
    description: `${description}. ${DATE_RULE}`,
  });
}

/** A date field that also takes a date-time (read by the date-time rule) and keeps its date as written. */
export function dateOrDateTimeText(description: string, formatMessage: string) {
  return checkedText((text) =>
    z.regexes.date.test(text) ? dateProblem(text, formatMessage) : dateTimeProblem(text, formatMessage),
  )
    .transform((text) => text.slice(0, 10))
    .meta({
      pattern: `^(?:${DATE_YEARS}${DATE_SOURCE}|${DATE_TIME_YEARS}${DATE_SOURCE}${TIME_SOURCE})$`,
      description: `${description}. ${DATE_RULE}, or a date-time (${DATE_TIME_RULE}) whose date as written is kept`,
    });
}
