import { hostname } from 'node:os';
import type { Executor } from '../../db/types.ts';

export interface Application {
  applied: boolean;
  meters_updated: number;
  configs_updated: number;
}

export const NOT_APPLIED: Application = { applied: false, meters_updated: 0, configs_updated: 0 };

const CONFIG_TARIFF_FIELDS = ['grid_tariff_id', 'solar_tariff_id', 'genset_tariff_id', 'inverter_tariff_id', 'load_tariff_id'];
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
  const meters = await tx.query(
    'UPDATE meters SET tariff_id = $3, updated_at = now() WHERE account_id = $1 AND tariff_id = $2 RETURNING id',
    [t.account_id, t.predecessor_id, t.successor_id],
  );
  const assignments = CONFIG_TARIFF_FIELDS.map((f) => `${f} = CASE WHEN ${f} = $2 THEN $3 ELSE ${f} END`).join(', ');
  const configs = await tx.query(
    `UPDATE energy_dashboard_configs SET ${assignments}, updated_at = now()
     WHERE account_id = $1 AND $2 IN (${CONFIG_TARIFF_FIELDS.join(', ')}) RETURNING building_block_id`,
    [t.account_id, t.predecessor_id, t.successor_id],
  );
  await tx.query('UPDATE tariff_transitions SET applied_at = $2 WHERE id = $1', [t.id, at]);
  await tx.query(
    `INSERT INTO tariff_transition_applications (transition_id, applied_at, meters_updated, configs_updated, applied_by)
     VALUES ($1, $2, $3, $4, $5)`,
    [t.id, at, meters.length, configs.length, APPLIER],
  );
  return { applied: true, meters_updated: meters.length, configs_updated: configs.length };
}
