import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseBusyError } from '../db/database-busy.ts';
import { PG_ERROR } from '../db/postgres-errors.ts';
import { failure } from './envelope.ts';
import type { ErrorCode } from './error-codes.ts';
import { AppError, INVALID_PATH, INVALID_REQUEST } from './errors.ts';
import { MAX_PARAM_LENGTH } from './limits.ts';
import type { RefusalLimit } from './refusal-limit.ts';
import { UNAVAILABLE_RETRY_AFTER_S } from './response-headers.ts';

/** Anything thrown: Fastify's errors and the database's carry a code, some a status. */
type Thrown = Error & { code?: string; statusCode?: number };

interface Mapped {
  status: number;
  code: ErrorCode;
  message: string | null;
  error: string;
  headers?: Record<string, string>;
}

const invalid = (error: string): Mapped => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  message: INVALID_REQUEST,
  error,
});
const invalidPath = (error: string): Mapped => ({
  status: 400,
  code: 'VALIDATION_FAILED',
  message: INVALID_PATH,
  error,
});

const FASTIFY_ERRORS: Record<string, Mapped> = {
  FST_ERR_CTP_INVALID_JSON_BODY: invalid('body: Malformed JSON'),
  FST_ERR_CTP_EMPTY_JSON_BODY: invalid('body: Empty JSON body'),
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'Payload too large',
    error: 'Request body is too large',
  },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Unsupported media type',
    error: 'Content type must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: invalid('Invalid content length'),
  // The router's refusals: their own messages echo the URL.
  FST_ERR_BAD_URL: invalidPath('path: Invalid percent-encoding'),
  FST_ERR_INVALID_URL: invalidPath('path: Invalid URL'),
  FST_ERR_MAX_PARAM_LENGTH: invalidPath(`path: A path parameter is longer than ${MAX_PARAM_LENGTH} characters`),
  FST_ERR_NOT_FOUND: { status: 404, code: 'NOT_FOUND', message: 'Not found', error: 'Route not found' },
  FST_ERR_HANDLER_TIMEOUT: {
    status: 503,
    code: 'DEADLINE_EXCEEDED',
    message: 'Service unavailable',
    error: 'The request took too long',
  },
};
const NOT_ALLOWED_CHARACTER = invalid('A text contains a character that is not allowed');

/**
 * Two transactions each waited for a lock the other held and PostgreSQL ended this one, or it lost
 * a serialization: nothing of it was written, and the same request again may pass.
 */
const WRITE_RACE: Mapped = {
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  message: 'Service unavailable',
  error: 'Another write needed the same records at the same time; nothing was written, retry shortly',
  headers: { 'retry-after': '1' },
};

// Database failures that a request can cause; anything else from the database is a 500.
const DATABASE_ERRORS: Record<string, Mapped> = {
  [PG_ERROR.DEADLOCK_DETECTED]: WRITE_RACE,
  [PG_ERROR.SERIALIZATION_FAILURE]: WRITE_RACE,
  [PG_ERROR.UNIQUE_VIOLATION]: {
    status: 409,
    code: 'CONFLICT',
    message: 'Conflict',
    error: 'A record with these values already exists',
  },
  [PG_ERROR.FOREIGN_KEY_VIOLATION]: invalid('A referenced record does not exist'),
  [PG_ERROR.NOT_NULL_VIOLATION]: invalid('A required value is missing'),
  [PG_ERROR.CHECK_VIOLATION]: invalid('A value is out of range'),
  [PG_ERROR.INVALID_TEXT_REPRESENTATION]: invalid('A value has an invalid format'),
  [PG_ERROR.NUMERIC_VALUE_OUT_OF_RANGE]: invalid('A number is out of range'),
  [PG_ERROR.INVALID_DATETIME_FORMAT]: invalid('A date is invalid'),
  [PG_ERROR.DATETIME_FIELD_OVERFLOW]: invalid('A date is out of range'),
  [PG_ERROR.CHARACTER_NOT_IN_REPERTOIRE]: NOT_ALLOWED_CHARACTER,
  [PG_ERROR.UNTRANSLATABLE_CHARACTER]: NOT_ALLOWED_CHARACTER,
};

const ABORTED_BODY = invalid('body: The request body was not received completely');
const UNAVAILABLE: Mapped = {
  status: 503,
  code: 'DATABASE_UNAVAILABLE',
  message: 'Service unavailable',
  error: 'The database is unavailable',
};
const CONNECTION_CODES = new Set<string>([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  PG_ERROR.ADMIN_SHUTDOWN,
  PG_ERROR.CRASH_SHUTDOWN,
  PG_ERROR.CANNOT_CONNECT_NOW,
  PG_ERROR.CONNECTION_FAILURE,
  PG_ERROR.UNABLE_TO_CONNECT,
  PG_ERROR.CONNECTION_DOES_NOT_EXIST,
]);

function isConnectionFailure(error: Thrown): boolean {
  if (error.code && CONNECTION_CODES.has(error.code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
    error.message ?? '',
  );
}

/** A failure as its status and envelope, as the error handler answers it. */
export function mapError(error: Thrown): Mapped {
  if (error instanceof AppError) {
    const { statusCode: status, code, envelopeMessage: message, detail, headers } = error;
    return { status, code, message, error: detail, headers };
  }
  if (error instanceof DatabaseBusyError) {
    return {
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      message: 'Service unavailable',
      error: error.detail,
      headers: { 'retry-after': String(error.retryAfterS) },
    };
  }
  const code = error.code;
  if (code && FASTIFY_ERRORS[code]) return FASTIFY_ERRORS[code];
  if (code && DATABASE_ERRORS[code]) return DATABASE_ERRORS[code];
  // A status set by Fastify or a plugin means the client caused it, whatever the code says.
  if (error.statusCode === 429) {
    return { status: 429, code: 'RATE_LIMITED', message: 'Too many requests', error: error.message };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    if (code === 'ECONNRESET') return ABORTED_BODY;
    return { ...invalid(error.message), status: error.statusCode };
  }
  if (isConnectionFailure(error)) return UNAVAILABLE;
  return { status: 500, code: 'INTERNAL', message: 'Internal server error', error: 'Internal server error' };
}

/** Writes a failure as the envelope; a 500 says nothing of its cause. */
export function sendFailure(error: Thrown, request: FastifyRequest, reply: FastifyReply): void {
  const mapped = mapError(error);
  if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
  // Every 401 carries a challenge (RFC 9110); the authentication hook sets a precise one. Every
  // 503 says when to ask again.
  const challenge = mapped.status === 401 ? { 'www-authenticate': 'Bearer' } : {};
  const retry = mapped.status === 503 ? { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) } : {};
  reply
    .code(mapped.status)
    .headers({ ...challenge, ...retry, ...mapped.headers })
    .send(failure(mapped.code, mapped.message, mapped.error));
}

/**
 * The one error handler: every failure leaves as the envelope. A 404 of a route that does not
 * exist counts against its client address's refusals (refusal-limit.ts), as a 401 does.
 */
export function registerErrorHandler(app: FastifyInstance, refusals?: RefusalLimit): void {
  app.setErrorHandler(sendFailure);
  app.setNotFoundHandler(async (request) => {
    await refusals?.check(request);
    const notFound = new AppError(404, 'Not found', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    throw refusals ? await refusals.refuse(request, notFound) : notFound;
  });
}
