/**
 * The stable names a failure envelope carries in `code`, by the status they come with: the
 * general name of each status first, then the finer ones a client acts on differently. A code
 * never changes meaning; a new case gets a new code.
 */
export const ERROR_CODES = {
  400: ['VALIDATION_FAILED', 'CATALOGUE_READ_ONLY', 'DATABASE_ERROR', 'BLOCK_PARENT_CYCLE', 'TRANSITION_CYCLE'],
  401: [
    'UNAUTHENTICATED',
    'TOKEN_EXPIRED',
    'INVALID_CREDENTIALS',
    'EMAIL_TAKEN',
    'REFRESH_TOKEN_INVALID',
    'REFRESH_TOKEN_REUSED',
  ],
  403: ['FORBIDDEN', 'ROLE_NOT_ALLOWED', 'OWNER_ONLY'],
  404: ['NOT_FOUND', 'USER_NOT_FOUND'],
  408: ['REQUEST_TIMEOUT'],
  409: [
    'CONFLICT',
    'EMAIL_TAKEN',
    'BLOCK_NOT_EMPTY',
    'METER_SN_TAKEN',
    'METER_HAS_READINGS',
    'TARIFF_IN_USE',
    'TARIFF_HAS_SUCCESSOR',
    'TRANSITION_APPLIED',
    'ALREADY_MEMBER',
    'PRIMARY_OWNER',
    'ORGANIZATION_NOT_EMPTY',
  ],
  413: ['PAYLOAD_TOO_LARGE'],
  414: ['URI_TOO_LONG'],
  415: ['UNSUPPORTED_MEDIA_TYPE'],
  429: ['RATE_LIMITED'],
  431: ['HEADERS_TOO_LARGE'],
  500: ['INTERNAL'],
  503: ['DATABASE_UNAVAILABLE', 'OVERLOADED', 'DEADLINE_EXCEEDED'],
} as const;

export type ErrorStatus = keyof typeof ERROR_CODES;
export type ErrorCode = (typeof ERROR_CODES)[ErrorStatus][number];

/** Every code, once. */
export const ALL_ERROR_CODES: readonly ErrorCode[] = [...new Set(Object.values(ERROR_CODES).flat())];

/** The general code of a status: what a failure carries unless its throw site names a finer one. */
export function defaultCode(status: number): ErrorCode {
  const codes = ERROR_CODES[status as ErrorStatus] as readonly ErrorCode[] | undefined;
  if (codes) return codes[0]!;
  return status >= 500 ? 'INTERNAL' : 'VALIDATION_FAILED';
}
