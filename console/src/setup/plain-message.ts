import { ApiError } from '../api/errors.ts';

/** What the API's code means, told as a sentence for someone who does not know its field names or codes. */
const SENTENCES: Record<string, string | ((detail: string) => string)> = {
  EMAIL_TAKEN: 'An account with this e-mail address already exists. Sign in instead, or use another address.',
  INVALID_CREDENTIALS: 'The e-mail address or the password is not right.',
  BLOCK_NOT_EMPTY:
    'This building block still has blocks or meters under it. Move or delete them first, then delete the block.',
  BLOCK_PARENT_CYCLE: 'A building block cannot be moved under itself or under one of its own blocks.',
  METER_SN_TAKEN: 'Another meter already has this serial number: each serial is unique.',
  METER_HAS_READINGS: 'This meter has readings. Deleting it would delete them too, so the console does not delete it.',
  TARIFF_IN_USE: (detail) => {
    const users = /^The tariff is still referenced by (.+)$/.exec(detail)?.[1];
    return `This tariff is still used${users ? ` (${users})` : ''}. Choose another tariff there first.`;
  },
  ROLE_NOT_ALLOWED: 'Your role in this organization does not allow this change: ask an owner or administrator.',
  OWNER_ONLY: 'Only an owner may make, change or remove another owner.',
  USER_NOT_FOUND: 'Nobody has signed up with this e-mail address yet. Ask them to create an account first.',
  ALREADY_MEMBER: 'This person is already a member of the organization.',
  PRIMARY_OWNER:
    'The person who created the organization stays its owner: they cannot be removed or given another role.',
  ORGANIZATION_NOT_EMPTY: 'The organization still has building blocks, meters or tariffs. Delete them first.',
  TRANSITION_CYCLE: 'A tariff cannot be followed by itself, nor by a tariff that leads back to it.',
  TARIFF_HAS_SUCCESSOR: 'This tariff already has a transition to a successor.',
  TRANSITION_APPLIED: 'This transition has already been applied and can no longer change.',
  CATALOGUE_READ_ONLY: 'Published catalogue tariffs cannot be changed: clone one into the organization to change it.',
  RATE_LIMITED: 'Too many requests just now: wait a moment and try again.',
  TOKEN_EXPIRED: 'Your session has ended: sign in again.',
  REFRESH_TOKEN_INVALID: 'Your session has ended: sign in again.',
  REFRESH_TOKEN_REUSED: 'Your session was ended for safety (it was used twice): sign in again.',
};

/** The codes whose own error text reads well enough (it names the field or the record). */
const TOLD_AS_SENT = new Set([
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'FORBIDDEN',
  'CONFLICT',
  'UNAUTHENTICATED',
  'PAYLOAD_TOO_LARGE',
]);

/** The codes of a service that is busy or down for a while: try again later. */
const UNAVAILABLE = new Set(['DATABASE_UNAVAILABLE', 'OVERLOADED', 'DEADLINE_EXCEEDED']);

/** The database-error form of the contract (code DATABASE_ERROR): error is JSON text with a Postgres code. */
const DATABASE_CODES: Record<string, string> = {
  '23502': 'A required field is empty: fill in every field marked required.',
  '23503': 'The chosen parent block does not exist in this organization.',
};

const FIELD = /^([a-z_]+)(?:\.\d+)?(?:\.[a-z_]+)?: (.*)$/;

function databaseSentence(detail: string): string | null {
  try {
    const { code } = JSON.parse(detail) as { code?: string };
    return (code && DATABASE_CODES[code]) ?? null;
  } catch {
    return null;
  }
}

/** "tax_rate: Too big" reads "Tax rate: too big". */
function fieldSentence(detail: string): string | null {
  const found = FIELD.exec(detail);
  if (!found) return null;
  const [, field, message] = found;
  const name = field!.replace(/_id$/, '').replaceAll('_', ' ');
  return `${name[0]!.toUpperCase()}${name.slice(1)}: ${message![0]!.toLowerCase()}${message!.slice(1)}.`;
}

const withRequestId = (sentence: string, requestId: string | null) =>
  requestId ? `${sentence} (request id ${requestId})` : sentence;

/** A refusal of the API as a sentence, read from its code; anything unexpected says the request id to report. */
export function plainMessage(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  const { code, detail, requestId } = error;
  const sentence = code ? SENTENCES[code] : undefined;
  if (typeof sentence === 'function') return sentence(detail);
  if (sentence) return sentence;
  if (code && TOLD_AS_SENT.has(code)) return fieldSentence(detail) ?? (detail || error.message);
  if (code === 'DATABASE_ERROR') {
    return databaseSentence(detail) ?? withRequestId('The change was refused by the database.', requestId);
  }
  if (code && UNAVAILABLE.has(code)) {
    return withRequestId('The service is busy or unavailable just now: try again in a moment.', requestId);
  }
  return withRequestId('Something went wrong.', requestId);
}
