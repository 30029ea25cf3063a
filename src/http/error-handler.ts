import type { FastifyError, FastifyInstance } from 'fastify';
import { DatabaseBusyError } from '../db/database-busy.ts';
import { AppError, INVALID_REQUEST } from './errors.ts';
import { failure } from './envelope.ts';

interface Mapped {
  status: number;
  message: string | null;
  error: string;
  headers?: Record<string, string>;
}

const FASTIFY_ERRORS: Record<string, Mapped> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: INVALID_REQUEST, error: 'body: Malformed JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: INVALID_REQUEST, error: 'body: Empty JSON body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'Payload too large', error: 'Request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Unsupported media type',
    error: 'Content type must be application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: INVALID_REQUEST, error: 'Invalid content length' },
};

// Database failures that a request can cause; anything else from the database is a 500.
const DATABASE_ERRORS: Record<string, Mapped> = {
  '23505': { status: 409, message: 'Conflict', error: 'A record with these values already exists' },
  '23503': { status: 400, message: INVALID_REQUEST, error: 'A referenced record does not exist' },
  '23502': { status: 400, message: INVALID_REQUEST, error: 'A required value is missing' },
  '23514': { status: 400, message: INVALID_REQUEST, error: 'A value is out of range' },
  '22P02': { status: 400, message: INVALID_REQUEST, error: 'A value has an invalid format' },
  '22003': { status: 400, message: INVALID_REQUEST, error: 'A number is out of range' },
  '22007': { status: 400, message: INVALID_REQUEST, error: 'A date is invalid' },
  '22008': { status: 400, message: INVALID_REQUEST, error: 'A date is out of range' },
  '22021': { status: 400, message: INVALID_REQUEST, error: 'A text contains a character that is not allowed' },
  '22P05': { status: 400, message: INVALID_REQUEST, error: 'A text contains a character that is not allowed' },
};

const UNAVAILABLE: Mapped = { status: 503, message: 'Service unavailable', error: 'The database is unavailable' };
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P02', '57P03', '08006', '08001', '08003']);

function isConnectionFailure(error: FastifyError & { code?: string }): boolean {
  if (error.code && CONNECTION_CODES.has(error.code)) return true;
  return /Connection terminated|connection timeout|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
    error.message ?? '',
  );
}

function mapError(error: FastifyError): Mapped {
  if (error instanceof AppError) {
    return { status: error.statusCode, message: error.envelopeMessage, error: error.detail, headers: error.headers };
  }
  if (error instanceof DatabaseBusyError) {
    return { status: 503, message: 'Service unavailable', error: error.detail, headers: { 'retry-after': String(error.retryAfterS) } };
  }
  const code = (error as { code?: string }).code;
  if (code && FASTIFY_ERRORS[code]) return FASTIFY_ERRORS[code];
  if (code && DATABASE_ERRORS[code]) return DATABASE_ERRORS[code];
  if (isConnectionFailure(error)) return UNAVAILABLE;
  if (error.statusCode === 429) return { status: 429, message: 'Too many requests', error: error.message };
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, message: INVALID_REQUEST, error: error.message };
  }
  return { status: 500, message: 'Internal server error', error: 'Internal server error' };
}

/** The one error handler: every failure leaves as the envelope; a 500 says nothing of its cause. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const mapped = mapError(error);
    if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    reply.code(mapped.status).headers(mapped.headers ?? {}).send(failure(mapped.message, mapped.error));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(failure('Not found', `Route ${request.method} ${request.url.split('?')[0]} not found`));
  });
}
