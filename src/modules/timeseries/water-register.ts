import { Decimal } from 'decimal.js';
import type { CacheInvalidation } from '../../db/read-cache.ts';
import type { Transaction } from '../../db/types.ts';
import { badRequest } from '../../http/errors.ts';
import { type MeterRow, readingsRepository, type WriteCounts } from './readings.repository.ts';
import { MAX_READING_VALUE, ReadingBatch } from './readings.ts';
import { registerReadsRepository, type StoredRegisterRead } from './register-reads.repository.ts';
import { changedWindow, consumedMicro, firstLowerRead, type RegisterRead, spreadVolumes } from './register-reads.ts';
import { prepareReadings, storeReadings } from './store-readings.ts';
import type { RegisterReadsBody } from './water.schemas.ts';

const MINUTE_MS = 60_000;
const MICRO = 1e6;

type ReadOfBody = RegisterRead & { index: number };

const asRead = (stored: StoredRegisterRead): RegisterRead => ({
  readAtMs: stored.read_at.getTime(),
  registerKl: stored.register_kl,
  rollover: stored.rollover,
});

/** The meter's reads with the body's (which replace stored ones of the same time), by time. */
function mergedReads(stored: readonly StoredRegisterRead[], body: RegisterReadsBody): (RegisterRead | ReadOfBody)[] {
  const byTime = new Map<number, RegisterRead | ReadOfBody>(stored.map((s) => [s.read_at.getTime(), asRead(s)]));
  body.reads.forEach((read, index) => {
    const readAtMs = read.read_at.getTime();
    byTime.set(readAtMs, { readAtMs, registerKl: read.register_kl, rollover: body.rollover, index });
  });
  return [...byTime.values()].sort((a, b) => a.readAtMs - b.readAtMs);
}

const isOfBody = (read: RegisterRead): read is ReadOfBody => 'index' in read;
const kl = (read: RegisterRead) => new Decimal(read.registerKl).toString();

/** 400 when a read is lower than the one before it and the body does not say the dial passed zero. */
function assertRising(reads: readonly RegisterRead[]): void {
  const at = firstLowerRead(reads);
  if (at < 0) return;
  const [before, after] = [reads[at - 1]!, reads[at]!];
  const named = isOfBody(after) ? after : (before as ReadOfBody);
  const when = (read: RegisterRead) => new Date(read.readAtMs).toISOString();
  throw badRequest(
    `reads.${named.index}.register_kl: ${kl(after)} kL on ${when(after)} is lower than ${kl(before)} kL on ${when(before)}; send rollover: true when the dial passed zero`,
  );
}

/**
 * Stores the register reads of a water meter (locked here first: the meter's stores one at a
 * time) and the volumes of the meter's intervals they change, spread evenly between consecutive
 * reads (extensions §13.6), as interval readings: sums, profiles and bills read them as any others.
 */
export async function storeRegisterReads(
  tx: Transaction,
  accountId: string,
  meter: MeterRow,
  body: RegisterReadsBody,
  cache: CacheInvalidation,
): Promise<WriteCounts & { intervals: number }> {
  await readingsRepository.lockOwnMeters(tx, accountId, [meter.id]);
  const reads = mergedReads(await registerReadsRepository.list(tx, accountId, meter.id), body);
  assertRising(reads);
  const counts = await registerReadsRepository.upsert(
    tx,
    meter.id,
    body.reads.map((read) => ({ ...read, rollover: body.rollover })),
  );
  const intervalMs = meter.interval_minutes * MINUTE_MS;
  const window = changedWindow(reads, isOfBody, intervalMs);
  const volumes = spreadVolumes(reads, intervalMs, window.fromMs, window.toMs);
  const batch = new ReadingBatch(volumes.length);
  for (const { ts, micro } of volumes) {
    const volume = Number(micro) / MICRO;
    if (volume > MAX_READING_VALUE) {
      throw badRequest(`reads: More than ${MAX_READING_VALUE} kL in the interval from ${new Date(ts).toISOString()}`);
    }
    batch.append(meter, ts, volume);
  }
  if (batch.length > 0) await storeReadings(tx, accountId, prepareReadings(batch), cache);
  return { ...counts, intervals: batch.length };
}

/** Stored reads as answered: the kL used since the read before (null for the first). */
export function registerReadsWithUse(stored: readonly StoredRegisterRead[]) {
  return stored.map((read, i) => {
    const used = i === 0 ? null : consumedMicro(asRead(stored[i - 1]!), asRead(read));
    return {
      read_at: read.read_at.toISOString(),
      register_kl: Number(read.register_kl),
      estimated: read.estimated,
      rollover: read.rollover,
      consumption_kl: used === null ? null : Number(used) / MICRO,
    };
  });
}
