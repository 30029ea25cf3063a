import { hostname } from 'node:os';
import type { Executor } from '../../db/types.ts';
import { transitionsRepository as repo } from './transitions.repository.ts';

export interface Application {
  applied: boolean;
  meters_updated: number;
  configs_updated: number;
}

export const NOT_APPLIED: Application = { applied: false, meters_updated: 0, configs_updated: 0 };

const APPLIER = `${hostname()}:${process.pid}`;

/**
 * Switches every meter and dashboard-config tariff field of the organization that names the
 * predecessor to the successor, and marks the transition applied. Runs inside the caller's
 * transaction, which must hold the transition's row (lock or fresh insert).
 */
export async function applyTransition(
  tx: Executor,
  t: { id: number; account_id: string; predecessor_id: number; successor_id: number },
  at: Date,
): Promise<Application> {
  const switched = await repo.switchTariff(tx, t.account_id, t.predecessor_id, t.successor_id);
  await repo.markApplied(tx, t.account_id, t.id, { at, ...switched, by: APPLIER });
  return { applied: true, meters_updated: switched.meters, configs_updated: switched.configs };
}
