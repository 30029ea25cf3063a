import type { Executor } from '../../db/types.ts';
import type { StoredReading } from './readings.ts';
import {
  type ReadingSource,
  readingsArraySource,
  readingsRepository,
  type WriteCounts,
} from './readings.repository.ts';
import { refreshRollups } from './rollups.repository.ts';

/**
 * Writes readings (upsert on (meter, ts)) and brings the rollups of their hours and days up to
 * date, inside the caller's transaction. Every path that stores readings goes through here. The
 * source may be a staging table already holding exactly these readings (bulk import).
 */
export async function storeReadings(
  tx: Executor,
  accountId: string,
  readings: readonly StoredReading[],
  source: ReadingSource = readingsArraySource(readings),
): Promise<WriteCounts> {
  await readingsRepository.lockMeters(tx, [...new Set(readings.map((r) => r.meter_id))]);
  const counts = await readingsRepository.upsert(tx, accountId, source);
  await refreshRollups(tx, source);
  return counts;
}
