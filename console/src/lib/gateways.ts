import type { Gateway } from '../api/models.ts';

/** A gateway not heard from for longer than this is silent: its meters' readings have stopped coming. */
export const SILENT_AFTER_MS = 24 * 60 * 60 * 1000;

/** Whether the gateway has pushed nothing for more than a day (since it was made, when it never has). */
export function isSilent(gateway: Pick<Gateway, 'last_seen_at' | 'created_at'>, now: number): boolean {
  return now - Date.parse(gateway.last_seen_at ?? gateway.created_at) > SILENT_AFTER_MS;
}
