import { type CacheInvalidation, cacheKeys } from '../../db/read-cache.ts';
import type { Transaction } from '../../db/types.ts';
import { binaryReadings, readingsRepository, type WriteCounts } from './readings.repository.ts';
import { type BatchColumns, ReadingBatch } from './readings.ts';
import { type RollupRow, rollupDeltas } from './rollup-deltas.ts';
import { addToRollups, binaryRollups, type RollupDeltas, refreshRollups } from './rollups.repository.ts';

/**
 * A batch with what storing it sends: its COPY data and its own rollup sums. Computed before the
 * transaction, so that a caller streaming batches (the import) does this work while the database
 * is busy with the previous batch, not while it waits.
 */
export interface PreparedReadings {
  readings: ReadingBatch;
  copy: Buffer<ArrayBuffer>;
  deltas: RollupDeltas;
}

/** One meter's prepared readings. */
export interface MeterBatch {
  meterId: number;
  readings: PreparedReadings;
}

export function prepareReadings(readings: ReadingBatch): PreparedReadings {
  const { hourly, daily } = rollupDeltas(readings);
  return {
    readings,
    copy: binaryReadings(readings),
    deltas: { hourly: { rows: () => hourly, copy: binaryRollups(hourly) }, daily: { rows: daily } },
  };
}

/** PreparedReadings as data that crosses threads; the hours' rows are made again where asked for. */
export interface PreparedData {
  readings: BatchColumns;
  copy: Uint8Array;
  hourlyCopy: Uint8Array;
  daily: readonly RollupRow[];
}

export function dataOf({ readings, copy, deltas }: PreparedReadings): PreparedData {
  return { readings: readings.columns(), copy, hourlyCopy: deltas.hourly.copy, daily: deltas.daily.rows };
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength);

export function preparedFrom(data: PreparedData): PreparedReadings {
  const readings = ReadingBatch.of(data.readings);
  return {
    readings,
    copy: asBuffer(data.copy),
    deltas: {
      hourly: { rows: () => rollupDeltas(readings).hourly, copy: asBuffer(data.hourlyCopy) },
      daily: { rows: data.daily },
    },
  };
}

/**
 * Writes readings (distinct (meter, ts); stored ones with the same key are replaced) of
 * accountId's meters and brings the rollups of their hours and days up to date, inside the
 * caller's transaction, and tells cache that the meters' readings change (what is kept by their
 * versions, such as profiles, is computed anew once the transaction commits). Every path that
 * stores readings goes through here.
 *
 * New data is the common case and has a fast path: when none of the readings is stored yet, they
 * are bulk-loaded and their own sums added to the rollups. Otherwise they are staged and upserted,
 * and the rollups of the hours and days they touch are recomputed from the stored readings.
 */
export async function storeReadings(
  tx: Transaction,
  accountId: string,
  batch: PreparedReadings,
  cache: CacheInvalidation,
): Promise<WriteCounts> {
  const meterIds = batch.readings.distinctMeterIds();
  const own = await readingsRepository.lockOwnMeters(tx, accountId, meterIds);
  if (own.size === 0) return { inserted: 0, updated: 0 };
  await cache.invalidate(tx, ...[...own].map(cacheKeys.meterReadings));
  const writable = own.size === meterIds.length ? batch : prepareReadings(batch.readings.only(own));
  if (await readingsRepository.insertIfAllNew(tx, writable.copy)) {
    await addToRollups(tx, writable.deltas);
    return { inserted: writable.readings.length, updated: 0 };
  }
  await readingsRepository.stage(tx, writable.copy);
  const counts = await readingsRepository.upsertStaged(tx, accountId);
  await refreshRollups(tx);
  return counts;
}
