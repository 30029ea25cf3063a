import { SOURCES, type Source, tariffField } from '../../db/energy-sources.ts';
import type { Executor } from '../../db/types.ts';
import type { TariffChange, TariffChangeCause } from './tariff-history.model.ts';

interface RecordFields {
  id: number;
  tariff_id: number | null;
  /** null: from the beginning of time (the first record). */
  effective_from: Date | null;
  recorded_at: Date;
  cause: TariffChangeCause | 'EXISTING';
  transition_id: number | null;
}

interface MeterTariffRecord extends RecordFields {
  meter_id: number;
}

interface SourceTariffRecord extends RecordFields {
  building_block_id: number;
  source: Source;
}

const RECORD_FIELDS = 'tariff_id, effective_from, recorded_at, cause, transition_id';

/**
 * The effective_from of a new record after `last`: none for the first record (from the beginning
 * of time), else the change's instant, but never before the last record's (a transition applied
 * late to a meter reassigned meanwhile takes effect from the reassignment).
 */
const EFFECTIVE_FROM = 'CASE WHEN last.id IS NOT NULL THEN greatest($3::timestamptz, last.effective_from) END';

/** The last record of a meter or source, for LEFT JOIN LATERAL ... last ON true. */
const lastRecord = (where: string) =>
  `(SELECT h.id, h.tariff_id, h.effective_from FROM tariff_history h WHERE ${where} ORDER BY h.id DESC LIMIT 1)`;

/** recorded_at, cause and transition_id of a new record ($3 is its instant). */
const CHANGE_VALUES = '$4::timestamptz, $5::text, $6::integer';

const changeParams = (change: TariffChange) => [
  change.effectiveFrom,
  change.recordedAt,
  change.cause,
  change.transitionId,
];

const CURRENT_SOURCE_TARIFF = `CASE s.source ${SOURCES.map((source) => `WHEN '${source}' THEN c.${tariffField(source)}`).join(' ')} END`;

/**
 * History is written after the change itself, in its transaction: the change holds the meter's or
 * config's row lock until it commits, so a change racing on the same row writes its records only
 * after this one's are committed and compares with them. Records are written for what differs from
 * the last record, so the last record always names the current tariff.
 */
export const tariffHistoryRepository = {
  /** Records the current tariff of each of the organization's meters `ids` whose tariff differs from its last record. */
  async recordMeters(db: Executor, accountId: string, ids: number[], change: TariffChange) {
    if (ids.length === 0) return;
    await db.query(
      `INSERT INTO tariff_history (account_id, meter_id, tariff_id, effective_from, recorded_at, cause, transition_id)
       SELECT m.account_id, m.id, m.tariff_id, ${EFFECTIVE_FROM}, ${CHANGE_VALUES}
       FROM meters m LEFT JOIN LATERAL ${lastRecord('h.meter_id = m.id')} last ON true
       WHERE m.account_id = $1 AND m.id = ANY($2::int[]) AND m.tariff_id IS DISTINCT FROM last.tariff_id
       ORDER BY m.id`,
      [accountId, ids, ...changeParams(change)],
    );
  },

  /**
   * Records, for each source of the configs of the blocks `blockIds`, the tariff the config now
   * names where it differs from the source's last record (a block without a config names none).
   */
  async recordConfigs(db: Executor, accountId: string, blockIds: number[], change: TariffChange) {
    if (blockIds.length === 0) return;
    await db.query(
      `WITH current AS (
         SELECT b.id AS block_id, s.source, s.position, ${CURRENT_SOURCE_TARIFF} AS tariff_id
         FROM unnest($2::int[]) AS b (id)
         CROSS JOIN unnest($7::text[]) WITH ORDINALITY AS s (source, position)
         LEFT JOIN energy_dashboard_configs c ON c.building_block_id = b.id AND c.account_id = $1
       )
       INSERT INTO tariff_history
         (account_id, building_block_id, source, tariff_id, effective_from, recorded_at, cause, transition_id)
       SELECT $1::uuid, s.block_id, s.source, s.tariff_id, ${EFFECTIVE_FROM}, ${CHANGE_VALUES}
       FROM current s
       LEFT JOIN LATERAL ${lastRecord('h.building_block_id = s.block_id AND h.source = s.source')} last ON true
       WHERE s.tariff_id IS DISTINCT FROM last.tariff_id
       ORDER BY s.block_id, s.position`,
      [accountId, blockIds, ...changeParams(change), SOURCES],
    );
  },

  /** The meter's records, oldest first. */
  ofMeter(db: Executor, accountId: string, meterId: number) {
    return db.query<MeterTariffRecord>(
      `SELECT id, meter_id, ${RECORD_FIELDS} FROM tariff_history
       WHERE account_id = $1 AND meter_id = $2 ORDER BY effective_from NULLS FIRST, id`,
      [accountId, meterId],
    );
  },

  /** The records of the block's config sources, oldest first. */
  ofConfig(db: Executor, accountId: string, blockId: number) {
    return db.query<SourceTariffRecord>(
      `SELECT id, building_block_id, source, ${RECORD_FIELDS} FROM tariff_history
       WHERE account_id = $1 AND building_block_id = $2 ORDER BY effective_from NULLS FIRST, id`,
      [accountId, blockId],
    );
  },
};
