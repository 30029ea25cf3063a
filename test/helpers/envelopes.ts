/** Expected failure envelopes, spelled out here rather than imported from src so the tests stay independent. */

/** The code a failure carries by its message, unless its error text has a finer one. */
const CODE_OF_MESSAGE: Record<string, string> = {
  'Invalid request body': 'VALIDATION_FAILED',
  'Invalid query': 'VALIDATION_FAILED',
  'Invalid path': 'VALIDATION_FAILED',
  'Bad request': 'VALIDATION_FAILED',
  'Catalogue is read-only': 'CATALOGUE_READ_ONLY',
  'Authentication required': 'UNAUTHENTICATED',
  Unauthorized: 'INVALID_CREDENTIALS',
  Forbidden: 'FORBIDDEN',
  'Not found': 'NOT_FOUND',
  Conflict: 'CONFLICT',
  'Too many requests': 'RATE_LIMITED',
  'Payload too large': 'PAYLOAD_TOO_LARGE',
  'Unsupported media type': 'UNSUPPORTED_MEDIA_TYPE',
  'URI too long': 'URI_TOO_LONG',
  'Request timeout': 'REQUEST_TIMEOUT',
  'Request header fields too large': 'HEADERS_TOO_LARGE',
  'Service unavailable': 'DATABASE_UNAVAILABLE',
  'Internal server error': 'INTERNAL',
};

/** The finer codes, by the error text that comes with them. */
const CODE_OF_ERROR: [RegExp, string][] = [
  [/^User already registered$/, 'EMAIL_TAKEN'],
  [/^Invalid login credentials$/, 'INVALID_CREDENTIALS'],
  [/^The access token has expired$/, 'TOKEN_EXPIRED'],
  [/^Refresh token already used/, 'REFRESH_TOKEN_REUSED'],
  [/^(Invalid refresh token|Refresh token expired)$/, 'REFRESH_TOKEN_INVALID'],
  [/^parent_id: A building block cannot be its own parent/, 'BLOCK_PARENT_CYCLE'],
  [/^successor_id: (A tariff cannot be its own successor|The transition would form a cycle)/, 'TRANSITION_CYCLE'],
  [/^The building block has child blocks or meters$/, 'BLOCK_NOT_EMPTY'],
  [/^A meter with this meter_sn already exists$/, 'METER_SN_TAKEN'],
  [/^The meter has readings/, 'METER_HAS_READINGS'],
  [/^The tariff is still referenced by /, 'TARIFF_IN_USE'],
  [/^The tariff already has a successor transition$/, 'TARIFF_HAS_SUCCESSOR'],
  [/^The transition has already been applied$/, 'TRANSITION_APPLIED'],
  [/^Your role does not allow this action$/, 'ROLE_NOT_ALLOWED'],
  [/^Only an OWNER may manage owners$/, 'OWNER_ONLY'],
  [/^User not found$/, 'USER_NOT_FOUND'],
  [/^The user is already a member of this organization$/, 'ALREADY_MEMBER'],
  [/^The primary owner/, 'PRIMARY_OWNER'],
  [/^The organization has dependent records/, 'ORGANIZATION_NOT_EMPTY'],
  [/^The server is overloaded/, 'OVERLOADED'],
  [/^No answer within the request's deadline|^The request took too long$/, 'DEADLINE_EXCEEDED'],
];

/** The code a failure of this message and error carries: the finer one of its error text, else its message's. */
export function codeOf(message: string | null, error: string): string {
  const finer = CODE_OF_ERROR.find(([pattern]) => pattern.test(error));
  if (finer) return finer[1];
  if (message === null) return 'DATABASE_ERROR';
  const code = CODE_OF_MESSAGE[message];
  if (!code) throw new Error(`No code known for the failure message "${message}": name it`);
  return code;
}

export const failure = (message: string | null, error: string, code = codeOf(message, error)) => ({
  success: false,
  message,
  error,
  code,
});

export const invalid = (error: string, code?: string) => failure('Invalid request body', error, code);
export const invalidQuery = (error: string) => failure('Invalid query', error);
export const invalidPath = (error: string) => failure('Invalid path', error);
export const forbidden = (error: string, code?: string) => failure('Forbidden', error, code);
export const conflict = (error: string, code?: string) => failure('Conflict', error, code);
export const notFound = (what: string, code?: string) => failure('Not found', `${what} not found`, code);
export const ownedByAnother = (what: string) => forbidden(`${what} belongs to another organization`);

export const AUTH_REQUIRED = failure('Authentication required', 'Invalid or missing bearer token');
export const FORBIDDEN_NOT_MEMBER = forbidden('You are not a member of this organization');
export const FORBIDDEN_ROLE = forbidden('Your role does not allow this action');
export const READ_ONLY = failure('Catalogue is read-only', 'Catalogue is read-only');
