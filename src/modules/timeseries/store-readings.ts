import type { Transaction } from '../../db/types.ts';
import type { ReadingBatch } from './readings.ts';
import { readingsRepository, type WriteCounts } from './readings.repository.ts';
import { rollupDeltas } from './rollup-deltas.ts';
import { addToRollups, refreshRollups } from './rollups.repository.ts';

/**
 * Writes readings (distinct (meter, ts); stored ones with the same key are replaced) of
 * accountId's meters and brings the rollups of their hours and days up to date, inside the
 * caller's transaction. Every path that stores readings goes through here.
 *
 * New data is the common case and has a fast path: when none of the readings is stored yet, they
 * are bulk-loaded and their own sums added to the rollups. Otherwise they are staged and upserted,
 * and the rollups of the hours and days they touch are recomputed from the stored readings.
 */
export async function storeReadings(tx: Transaction, accountId: string, readings: ReadingBatch): Promise<WriteCounts> {
  const own = await readingsRepository.lockOwnMeters(tx, accountId, readings.distinctMeterIds());
  const writable = readings.only(own);
  if (writable.length === 0) return { inserted: 0, updated: 0 };
  if (await readingsRepository.insertIfAllNew(tx, writable)) {
    await addToRollups(tx, rollupDeltas(writable));
    return { inserted: writable.length, updated: 0 };
  }
  await readingsRepository.stage(tx, writable);
  const counts = await readingsRepository.upsertStaged(tx, accountId);
  await refreshRollups(tx);
  return counts;
}
