import { TARIFF_FIELDS } from '../../db/energy-sources.ts';
import type { Executor } from '../../db/types.ts';

export interface TransitionRow {
  id: number;
  account_id: string;
  predecessor_id: number;
  successor_id: number;
  effective_from: Date;
  notes: string;
  created_at: Date;
  created_by: string | null;
  applied_at: Date | null;
}

const COLUMNS =
  'id, account_id, predecessor_id, successor_id, effective_from, notes, created_at, created_by, applied_at';

export const transitionsRepository = {
  /** With lock, the row stays locked until the transaction ends (the scheduler skips it meanwhile). */
  async findByPredecessor(db: Executor, accountId: string, predecessorId: number, lock = false) {
    const [row] = await db.query<TransitionRow>(
      `SELECT ${COLUMNS} FROM tariff_transitions WHERE account_id = $1 AND predecessor_id = $2 ${lock ? 'FOR UPDATE' : ''}`,
      [accountId, predecessorId],
    );
    return row;
  },

  /** Locks and returns due, unapplied transitions that no other process holds. */
  async lockDue(db: Executor, at: Date, limit: number) {
    return db.query<TransitionRow>(
      `SELECT ${COLUMNS} FROM tariff_transitions
       WHERE applied_at IS NULL AND effective_from <= $1
       ORDER BY effective_from, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [at, limit],
    );
  },

  /** Inserts the transition, or returns undefined when the predecessor already has one. */
  async insert(
    db: Executor,
    t: {
      accountId: string;
      predecessorId: number;
      successorId: number;
      effectiveFrom: string;
      notes: string;
      createdBy: string;
    },
  ) {
    const [row] = await db.query<TransitionRow>(
      `INSERT INTO tariff_transitions (account_id, predecessor_id, successor_id, effective_from, notes, created_by)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (predecessor_id) DO NOTHING RETURNING ${COLUMNS}`,
      [t.accountId, t.predecessorId, t.successorId, t.effectiveFrom, t.notes, t.createdBy],
    );
    return row;
  },

  async update(
    db: Executor,
    id: number,
    accountId: string,
    t: { successorId: number; effectiveFrom: Date | string; notes: string },
  ) {
    const [row] = await db.query<TransitionRow>(
      `UPDATE tariff_transitions SET successor_id = $3, effective_from = $4, notes = $5
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, accountId, t.successorId, t.effectiveFrom, t.notes],
    );
    return row!;
  },

  /** Whether the predecessor's transition was deleted (by this call; a racing delete finds none). */
  async deleteOfPredecessor(db: Executor, accountId: string, predecessorId: number) {
    const deleted = await db.query(
      'DELETE FROM tariff_transitions WHERE account_id = $1 AND predecessor_id = $2 RETURNING id',
      [accountId, predecessorId],
    );
    return deleted.length > 0;
  },

  /**
   * Serialises the changes to the organization's transition chains until the transaction ends, so
   * that each cycle check sees the transitions written before it. Locks the organization's row in
   * a mode that the foreign key checks of other writes (FOR KEY SHARE) do not wait for.
   */
  async lockChains(db: Executor, accountId: string) {
    await db.query('SELECT id FROM accounts WHERE id = $1 FOR NO KEY UPDATE', [accountId]);
  },

  /**
   * Switches every meter and dashboard-config tariff field of the organization that names the
   * predecessor to the successor; the meters and the configs (by block) that changed.
   */
  async switchTariff(db: Executor, accountId: string, predecessorId: number, successorId: number) {
    const meters = await db.query<{ id: number }>(
      'UPDATE meters SET tariff_id = $3, updated_at = now() WHERE account_id = $1 AND tariff_id = $2 RETURNING id',
      [accountId, predecessorId, successorId],
    );
    const assignments = TARIFF_FIELDS.map((f) => `${f} = CASE WHEN ${f} = $2 THEN $3 ELSE ${f} END`).join(', ');
    const configs = await db.query<{ building_block_id: number }>(
      `UPDATE energy_dashboard_configs SET ${assignments}, updated_at = now()
       WHERE account_id = $1 AND $2 IN (${TARIFF_FIELDS.join(', ')}) RETURNING building_block_id`,
      [accountId, predecessorId, successorId],
    );
    return { meterIds: meters.map((m) => m.id), blockIds: configs.map((c) => c.building_block_id) };
  },

  /** Marks the transition applied at `at`, and records the application. */
  async markApplied(
    db: Executor,
    accountId: string,
    id: number,
    application: { at: Date; meters: number; configs: number; by: string },
  ) {
    await db.query('UPDATE tariff_transitions SET applied_at = $3 WHERE id = $1 AND account_id = $2', [
      id,
      accountId,
      application.at,
    ]);
    await db.query(
      `INSERT INTO tariff_transition_applications (transition_id, applied_at, meters_updated, configs_updated, applied_by)
       VALUES ($1, $2, $3, $4, $5)`,
      [id, application.at, application.meters, application.configs, application.by],
    );
  },

  /** Whether following transitions from `from` reaches `target` (which would close a cycle). */
  async chainReaches(db: Executor, accountId: string, from: number, target: number) {
    const [row] = await db.query<{ reaches: boolean }>(
      `WITH RECURSIVE chain (tariff_id, depth) AS (
         SELECT $2::integer, 0
         UNION ALL
         SELECT t.successor_id, c.depth + 1 FROM chain c
         JOIN tariff_transitions t ON t.predecessor_id = c.tariff_id AND t.account_id = $1
         WHERE c.depth < 10000
       )
       SELECT EXISTS (SELECT 1 FROM chain WHERE tariff_id = $3) AS reaches`,
      [accountId, from, target],
    );
    return row!.reaches;
  },
};
