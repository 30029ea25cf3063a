import type { Executor } from '../../db/types.ts';
import type { WriteCounts } from './readings.repository.ts';

export interface StoredRegisterRead {
  read_at: Date;
  register_kl: string;
  estimated: boolean;
  rollover: boolean;
}

export interface NewRegisterRead {
  read_at: Date;
  register_kl: number;
  estimated: boolean;
  rollover: boolean;
}

export const registerReadsRepository = {
  /** The meter's register reads, oldest first (nothing unless the meter is accountId's). */
  async list(db: Executor, accountId: string, meterId: number): Promise<StoredRegisterRead[]> {
    return db.query<StoredRegisterRead>(
      `SELECT r.read_at, r.register_kl::text AS register_kl, r.estimated, r.rollover
       FROM register_reads r JOIN meters m ON m.id = r.meter_id AND m.account_id = $2
       WHERE r.meter_id = $1 ORDER BY r.read_at`,
      [meterId, accountId],
    );
  },

  /** Stores the reads of a meter the caller has locked, replacing those with the same read_at. */
  async upsert(tx: Executor, meterId: number, reads: readonly NewRegisterRead[]): Promise<WriteCounts> {
    const [counts] = await tx.query<WriteCounts>(
      `WITH written AS (
         INSERT INTO register_reads (meter_id, read_at, register_kl, estimated, rollover)
         SELECT $1, r.read_at, r.register_kl, r.estimated, r.rollover
         FROM unnest($2::timestamptz[], $3::numeric[], $4::boolean[], $5::boolean[])
           AS r(read_at, register_kl, estimated, rollover)
         ON CONFLICT (meter_id, read_at) DO UPDATE SET register_kl = excluded.register_kl,
           estimated = excluded.estimated, rollover = excluded.rollover
         RETURNING (xmax = 0) AS inserted
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted, count(*) FILTER (WHERE NOT inserted)::int AS updated
       FROM written`,
      [
        meterId,
        reads.map((r) => r.read_at.toISOString()),
        reads.map((r) => String(r.register_kl)),
        reads.map((r) => r.estimated),
        reads.map((r) => r.rollover),
      ],
    );
    return counts!;
  },
};
