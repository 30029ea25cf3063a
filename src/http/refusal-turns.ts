import { setTimeout as delay } from 'node:timers/promises';
import { type Admission, ANY_ORGANIZATION } from './admission.ts';

/**
 * How long each refusal holds the process's turn (ms), besides the rest the admission adds: a
 * flood of refusals is answered some 500 a second at most, whatever its number of connections.
 */
export const REFUSAL_TURN_MS = 1;

/**
 * Turns for the refusals of requests without a valid token (their 401), which cost the process a
 * signature check each and no user a slot of theirs. They are answered one at a time in the
 * process, client addresses in turn, each holding the turn REFUSAL_TURN_MS: a flood of them waits
 * unanswered on its own connections instead of filling the event loop, and a refusal from another
 * address goes next. Past half the request timeout a refusal answers 429 instead.
 */
export function createRefusalTurns(refusals: Admission) {
  return (clientAddress: string): Promise<void> =>
    refusals.admit({ userId: clientAddress }, ANY_ORGANIZATION, () => delay(REFUSAL_TURN_MS));
}

export type RefusalTurn = ReturnType<typeof createRefusalTurns>;
