import type { Executor } from '../../db/types.ts';

/** Why a meter's or source's tariff changed (EXISTING: assigned before history began, set by the migration). */
export type TariffChangeCause = 'CREATE' | 'UPDATE' | 'TRANSITION' | 'DELETE';

/** A change of tariffs to record: when it takes effect, when it was made, and why. */
export interface TariffChange {
  effectiveFrom: Date;
  recordedAt: Date;
  cause: TariffChangeCause;
  transitionId: number | null;
}

/** A change made by a request: it takes effect when it is made. */
export const requestChange = (at: Date, cause: TariffChangeCause): TariffChange => ({
  effectiveFrom: at,
  recordedAt: at,
  cause,
  transitionId: null,
});

/**
 * Writes the tariff history inside the transaction of a change of tariffs (a meter's or a config
 * source's); the modules that change tariffs are given one.
 */
export interface TariffHistoryRecorder {
  /** Records the current tariff of each of the organization's meters `ids` whose tariff differs from its last record. */
  recordMeters(tx: Executor, accountId: string, ids: number[], change: TariffChange): Promise<void>;
  /** Records the current tariff of each source of the organization's configs `blockIds` that differs from its last record. */
  recordConfigs(tx: Executor, accountId: string, blockIds: number[], change: TariffChange): Promise<void>;
}
