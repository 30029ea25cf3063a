import { hostname } from 'node:os';
import type { Executor } from '../../db/types.ts';
import type { TariffChange, TariffHistoryRecorder } from '../tariff-history/tariff-history.model.ts';
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
 * predecessor to the successor, records each switch in the tariff history as taking effect at the
 * transition's effective_from (however late it is applied), and marks the transition applied.
 * Runs inside the caller's transaction, which must hold the transition's row (lock or fresh insert).
 */
export async function applyTransition(
  tx: Executor,
  t: { id: number; account_id: string; predecessor_id: number; successor_id: number; effective_from: Date },
  at: Date,
  history: TariffHistoryRecorder,
): Promise<Application> {
  const { meterIds, blockIds } = await repo.switchTariff(tx, t.account_id, t.predecessor_id, t.successor_id);
  const change: TariffChange = {
    effectiveFrom: t.effective_from,
    recordedAt: at,
    cause: 'TRANSITION',
    transitionId: t.id,
  };
  await history.recordMeters(tx, t.account_id, meterIds, change);
  await history.recordConfigs(tx, t.account_id, blockIds, change);
  const application = { applied: true, meters_updated: meterIds.length, configs_updated: blockIds.length };
  await repo.markApplied(tx, t.account_id, t.id, {
    at,
    meters: application.meters_updated,
    configs: application.configs_updated,
    by: APPLIER,
  });
  return application;
}
