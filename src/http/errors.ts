import { defaultCode, type ErrorCode } from './error-codes.ts';

/** What an AppError may add to its status and texts: response headers, a finer code than its status's. */
export interface AppErrorOptions {
  headers?: Record<string, string>;
  code?: ErrorCode;
}

/** A failure the client can act on: becomes the failure envelope with this status and code. */
export class AppError extends Error {
  readonly headers: Record<string, string>;
  readonly code: ErrorCode;

  constructor(
    readonly statusCode: number,
    readonly envelopeMessage: string | null,
    readonly detail: string,
    options: AppErrorOptions = {},
  ) {
    // An expected failure, answered as it is: capturing a stack trace was about 10 µs of each
    // refusal, 4 % of the service's time while one organization floods it with refused requests.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(detail);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'AppError';
    this.headers = options.headers ?? {};
    this.code = options.code ?? defaultCode(statusCode);
  }
}

export const INVALID_REQUEST = 'Invalid request body';
export const INVALID_QUERY = 'Invalid query';
export const CATALOGUE_READ_ONLY = 'Catalogue is read-only';

export const INVALID_PATH = 'Invalid path';

export const badRequest = (detail: string, code?: ErrorCode) => new AppError(400, INVALID_REQUEST, detail, { code });
const MISSING_TOKEN = 'Invalid or missing bearer token';
export const INVALID_TOKEN = 'Invalid bearer token';
export const EXPIRED_TOKEN = 'The access token has expired';

/** 401 with its RFC 6750 challenge: bare without a token, `invalid_token` when one was sent. */
export const unauthorized = (detail = MISSING_TOKEN, tokenSent = false) =>
  new AppError(401, 'Authentication required', detail, {
    headers: {
      'www-authenticate': tokenSent ? `Bearer error="invalid_token", error_description="${detail}"` : 'Bearer',
    },
    code: detail === EXPIRED_TOKEN ? 'TOKEN_EXPIRED' : 'UNAUTHENTICATED',
  });
export const invalidCredentials = (detail: string, code: ErrorCode = 'INVALID_CREDENTIALS') =>
  new AppError(401, 'Unauthorized', detail, { code });
export const uriTooLong = (maxBytes: number) =>
  new AppError(414, 'URI too long', `The URL is longer than ${maxBytes} bytes`, { code: 'URI_TOO_LONG' });
export const forbidden = (detail = 'You do not have access to this organization', code?: ErrorCode) =>
  new AppError(403, 'Forbidden', detail, { code });
export const notFound = (what: string, code?: ErrorCode) =>
  new AppError(404, 'Not found', `${what} not found`, { code });
export const conflict = (detail: string, code?: ErrorCode) => new AppError(409, 'Conflict', detail, { code });
export const catalogueReadOnly = () =>
  new AppError(400, CATALOGUE_READ_ONLY, CATALOGUE_READ_ONLY, { code: 'CATALOGUE_READ_ONLY' });

interface Issue {
  path: readonly PropertyKey[];
  message: string;
  code?: string;
  keys?: readonly string[];
}

/** At most this many problems are listed in one error; the rest are counted. */
const MAX_LISTED_PROBLEMS = 20;

/** Problems as `a; b; c`, the first MAX_LISTED_PROBLEMS of them, then `…and N more`. */
export function listProblems(problems: readonly string[]): string {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).join('; ');
  const more = problems.length - MAX_LISTED_PROBLEMS;
  return more > 0 ? `${listed}; …and ${more} more` : listed;
}

/** Validation issues as `field.path: message; other: message`; each unknown key as `its.path: Unrecognized key "key"`. */
export function formatIssues(issues: readonly Issue[], root: string): string {
  const where = (path: readonly PropertyKey[]) => (path.length > 0 ? path.map(String).join('.') : root);
  return listProblems(
    issues.flatMap((i) =>
      i.code === 'unrecognized_keys' && i.keys
        ? i.keys.map((key) => `${where([...i.path, key])}: Unrecognized key "${key}"`)
        : [`${where(i.path)}: ${i.message}`],
    ),
  );
}
