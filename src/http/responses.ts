import { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ErrorStatus } from './error-codes.ts';
import { CATALOGUE_READ_ONLY, INVALID_PATH, INVALID_QUERY, INVALID_REQUEST } from './errors.ts';
import { email } from './fields.ts';

/**
 * Response schemas of the API reference: the envelope around each route's data and the failure
 * envelope of its error statuses. They describe the JSON on the wire (timestamps are ISO 8601
 * strings), and every object is strict: the test suite checks each answer against them, so a
 * field that a schema does not name fails a test instead of going undocumented.
 */

/** A response schema as routes declare it; the handler's reply is not typed by it. */
export type ResponseSchema = z.ZodType;

/** A string of a JSON Schema format: checked as the format, documented by the format's name alone. */
function formatted(format: string, check: z.ZodType<string>) {
  return z
    .string()
    .refine((value) => check.safeParse(value).success, `Must be a valid ${format}`)
    .meta({ format });
}

/** An instant as answered: ISO 8601 in UTC. */
export const timestamp = formatted('date-time', z.iso.datetime());
/** A calendar date as answered: `YYYY-MM-DD`. */
export const isoDate = formatted('date', z.iso.date());
/** A uuid as answered (lower-case). */
export const uuidValue = formatted('uuid', z.uuid());
export const emailValue = formatted('email', email);
/** An integer as answered (ids, counts), documented without zod's safe-integer bounds. */
export const integer = z.number().refine(Number.isInteger, 'Must be an integer').meta({ type: 'integer' });

/** The first example of a schema: its own, else that of what it wraps (an array: of one element). */
function firstExample(schema: z.ZodType): unknown {
  const examples = (schema.meta() as { examples?: unknown[] } | undefined)?.examples;
  if (examples?.length) return examples[0];
  if (schema instanceof z.ZodNullable) return firstExample(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) {
    const element = firstExample(schema.element as z.ZodType);
    return element === undefined ? undefined : [element];
  }
  return undefined;
}

function envelopeExample(data: unknown, extra: object = {}) {
  return data === undefined ? {} : { examples: [{ success: true, message: null, data, ...extra }] };
}

const message = z.string().nullable().describe('Optional human-readable text');

/** The success envelope around one value (its example: the envelope around the data's first example). */
export function okEnvelope(data: z.ZodType, description: string): ResponseSchema {
  return z
    .strictObject({ success: z.literal(true), message, data })
    .meta({ description, ...envelopeExample(firstExample(data)) });
}

/** The list envelopes made by listEnvelope: the answers that are pages of rows. */
const pages = new WeakSet<object>();

/** Whether a route's response schema is a list envelope (its answer a page of rows). */
export const isListEnvelope = (schema: unknown): boolean =>
  typeof schema === 'object' && schema !== null && pages.has(schema);

/** The success envelope of a list: data and count (the total of matching rows; a page may hold fewer). */
export function listEnvelope(item: z.ZodType, description: string, count = 1): ResponseSchema {
  const example = firstExample(item);
  const envelope = z
    .strictObject({
      success: z.literal(true),
      message,
      data: z.array(item),
      count: integer.describe('Total of matching rows, not the length of this page'),
    })
    .meta({ description, ...envelopeExample(example === undefined ? undefined : [example], { count }) });
  pages.add(envelope);
  return envelope;
}

/** 204: success without a body. */
export const noContent: ResponseSchema = z.null().describe('Done; no body');

/** The failure envelope of a status: its code one of the status's codes (error-codes.ts). */
function failureEnvelope(status: ErrorStatus) {
  const [general, ...finer] = ERROR_CODES[status];
  return z.strictObject({
    success: z.literal(false),
    message: z.string().nullable(),
    error: z.string(),
    code: z
      .enum([general, ...finer])
      .describe(
        `What failed, as a stable name a program can act on: ${general}${finer.length > 0 ? `, or the finer ${finer.join(', ')}` : ''}`,
      ),
  });
}

type FailureStatus = 400 | 401 | 403 | 404 | 409 | 429 | 503;
/** Refusals of the HTTP layer, before a route's handler runs: declared on every operation that can meet them. */
type TransportStatus = 408 | 413 | 414 | 415 | 431;

const FAILURES: Record<
  FailureStatus | TransportStatus,
  { description: string; message: string | null; error: string }
> = {
  400: {
    description: `Invalid input: message "${INVALID_REQUEST}", error naming each field as \`field: message\` (also "${CATALOGUE_READ_ONLY}" for a write on the catalogue); an invalid query parameter, or one the operation does not name: message "${INVALID_QUERY}", error \`name: message\`; an invalid path parameter: message "${INVALID_PATH}"`,
    message: INVALID_REQUEST,
    error: 'account_id: Invalid UUID',
  },
  401: {
    description: 'No valid bearer token (or, on sign-in, wrong credentials)',
    message: 'Authentication required',
    error: 'Invalid or missing bearer token',
  },
  403: {
    description:
      'The caller is not a member of the organization, the role may not do this, or the record belongs to another organization',
    message: 'Forbidden',
    error: 'You are not a member of this organization',
  },
  404: { description: 'No such record', message: 'Not found', error: 'Record not found' },
  409: { description: 'The request conflicts with the stored records', message: 'Conflict', error: 'Conflict' },
  429: {
    description: 'Too many requests waiting; retry after the seconds of the Retry-After header',
    message: 'Too many requests',
    error: 'Too many requests of yours waiting; retry shortly',
  },
  503: {
    description:
      'The database is unavailable or busy, the server overloaded, or the request past its deadline; retry after the seconds of the Retry-After header',
    message: 'Service unavailable',
    error: 'The database is unavailable',
  },
  408: {
    description: 'The whole request did not arrive within REQUEST_TIMEOUT_S (30 s); the connection is closed',
    message: 'Request timeout',
    error: 'The request was not received within 30 s',
  },
  413: {
    description: 'The request body is over 1 MiB (16 MiB for readings)',
    message: 'Payload too large',
    error: 'Request body is too large',
  },
  414: { description: 'The URL is over 8 KiB', message: 'URI too long', error: 'The URL is longer than 8192 bytes' },
  415: {
    description: 'The request body is not JSON',
    message: 'Unsupported media type',
    error: 'Content type must be application/json',
  },
  431: {
    description: 'The request headers are over 16 KiB; the connection is closed',
    message: 'Request header fields too large',
    error: 'The request headers are larger than 16384 bytes',
  },
};

/** An example of a failure: `true` for the usual text, a string for the route's own error text, or both texts (and a finer code). */
type FailureExample = true | string | { message: string | null; error: string; code?: ErrorCode };

function failureSchema(status: FailureStatus | TransportStatus, example: FailureExample): ResponseSchema {
  const usual = FAILURES[status];
  const texts: { message: string | null; error: string; code?: ErrorCode } =
    example === true ? usual : typeof example === 'string' ? { message: usual.message, error: example } : example;
  return failureEnvelope(status).meta({
    description: usual.description,
    examples: [
      { success: false, message: texts.message, error: texts.error, code: texts.code ?? ERROR_CODES[status][0] },
    ],
  });
}

/** The refusals of the HTTP layer that an operation can meet: every one 408, 414 and 431; one with a body 413 and 415. */
export function transportFailures(hasBody: boolean): Record<number, ResponseSchema> {
  const statuses: TransportStatus[] = hasBody ? [408, 413, 414, 415, 431] : [408, 414, 431];
  return Object.fromEntries(statuses.map((status) => [status, failureSchema(status, true)]));
}

type Failures = Partial<Record<FailureStatus, FailureExample>>;

/** The 400 of every operation, also of one without parameters: a query parameter it does not name. */
const UNKNOWN_PARAMETER: FailureExample = { message: INVALID_QUERY, error: 'bucket_minute: Unrecognized parameter' };

function failureSchemas(errors: Failures): Record<number, ResponseSchema> {
  return Object.fromEntries(
    Object.entries(errors).map(([status, example]) => [
      status,
      failureSchema(Number(status) as FailureStatus, example),
    ]),
  );
}

/** The 429 of a user's request past their queue (fair-scheduler.ts). */
const USER_REQUESTS_PAST_TURN: FailureExample = 'Too many requests of yours waiting; retry shortly';

/**
 * The failure envelopes of a route that needs a token, by status, each with an example; 400 (an
 * unknown query parameter), 401, 429 (a user's requests past their queue) and 503 apply to all.
 */
export function failures(errors: Failures): Record<number, ResponseSchema> {
  return serviceRoleFailures({ 429: USER_REQUESTS_PAST_TURN, ...errors });
}

/** The failure envelopes of a route for the service-role key: as failures(), but no user's turn (a 429 only when given). */
export function serviceRoleFailures(errors: Failures): Record<number, ResponseSchema> {
  return failureSchemas({ 400: UNKNOWN_PARAMETER, 401: true, ...errors, 503: errors[503] ?? true });
}

/** The failure envelopes of a route that needs no token; 400 (an unknown query parameter) and 503 apply to all. */
export function publicFailures(errors: Failures): Record<number, ResponseSchema> {
  return failureSchemas({ 400: UNKNOWN_PARAMETER, ...errors, 503: errors[503] ?? true });
}
