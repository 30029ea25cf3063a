import { ApiError } from '../api/errors.ts';

/** What the API says, told as a sentence for someone who does not know its field names or codes: each pattern matches the whole text. */
const SENTENCES: [RegExp, string][] = [
  [
    /^The building block has child blocks or meters$/,
    'This building block still has blocks or meters under it. Move or delete them first, then delete the block.',
  ],
  [
    /^parent_id: A building block cannot be its own parent.*$/,
    'A building block cannot be moved under itself or under one of its own blocks.',
  ],
  [
    /^A meter with this meter_sn already exists$/,
    'Another meter already has this serial number: each serial is unique.',
  ],
  [
    /^The meter has readings.*$/,
    'This meter has readings. Deleting it would delete them too, so the console does not delete it.',
  ],
  [/^The tariff is still referenced by (.*)$/, 'This tariff is still used ($1). Choose another tariff there first.'],
  [
    /^Your role does not allow this action$/,
    'Your role in this organization does not allow this change: ask an owner or administrator.',
  ],
  [/^Only an OWNER may manage owners$/, 'Only an owner may make, change or remove another owner.'],
  [/^User not found$/, 'Nobody has signed up with this e-mail address yet. Ask them to create an account first.'],
  [/^The user is already a member of this organization$/, 'This person is already a member of the organization.'],
  [/^The primary owner cannot be removed$/, 'The person who created the organization cannot be removed from it.'],
  [/^The primary owner's role cannot be changed$/, 'The person who created the organization stays its owner.'],
  [
    /^The organization has dependent records.*$/,
    'The organization still has building blocks, meters or tariffs. Delete them first.',
  ],
  [/^successor_id: A tariff cannot be its own successor$/, 'A tariff cannot be followed by itself.'],
  [
    /^successor_id: The transition would form a cycle.*$/,
    'That successor already leads back to this tariff: the chain of tariffs would go round in a circle.',
  ],
  [/^The tariff already has a successor transition$/, 'This tariff already has a transition to a successor.'],
  [/^The transition has already been applied$/, 'This transition has already been applied and can no longer change.'],
];

/** The database-error form of the contract: error is JSON text with a Postgres code. */
const DATABASE_CODES: Record<string, string> = {
  '23502': 'A required field is empty: fill in every field marked required.',
  '23503': 'The chosen parent block does not exist in this organization.',
};

const FIELD = /^([a-z_]+)(?:\.\d+)?(?:\.[a-z_]+)?: (.*)$/;

function databaseSentence(detail: string): string | null {
  if (!detail.startsWith('{')) return null;
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

export function plainMessage(error: Error): string {
  if (!(error instanceof ApiError)) return error.message;
  const detail = error.detail;
  for (const [pattern, sentence] of SENTENCES) if (pattern.test(detail)) return detail.replace(pattern, sentence);
  return databaseSentence(detail) ?? fieldSentence(detail) ?? (detail || error.message);
}
