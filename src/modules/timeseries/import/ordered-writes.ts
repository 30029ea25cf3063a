import type { CacheInvalidation } from '../../../db/read-cache.ts';
import type { Database } from '../../../db/types.ts';
import type { WriteCounts } from '../readings.repository.ts';
import { type PreparedReadings, storeReadings } from '../store-readings.ts';

/** Batches written at the same time: the database works on one while it waits for the other's round trips. */
const WRITERS = 2;

/**
 * Writes batches of readings in the order given, up to WRITERS at a time, each in its own
 * transaction on its own connection. A batch commits only after the batch before it (its
 * transaction waits for that commit, and rolls back if that batch failed), so that what is stored
 * is always the batches up to some point of the order.
 */
export class OrderedWrites {
  private committed: Promise<void> = Promise.resolve();
  private readonly inFlight: { committed: Promise<void>; meters: Set<number> }[] = [];

  constructor(
    private readonly db: Database,
    private readonly accountId: string,
    private readonly cache: CacheInvalidation,
    /** Told of each batch once it is committed, in order. */
    private readonly onCommitted: (counts: WriteCounts) => void,
  ) {}

  /** Starts writing a batch, once there is room for it. */
  async write(readings: PreparedReadings): Promise<void> {
    if (this.inFlight.length >= WRITERS) await this.inFlight.shift()!.committed;
    // A batch sharing a meter with one being written would wait for its commit at the meter's
    // lock anyway; it starts after that commit, for it could otherwise take the lock first and
    // then wait for that commit while holding it: neither would move.
    const meters = readings.readings.distinctMeterIds();
    if (this.inFlight.some((batch) => meters.some((id) => batch.meters.has(id)))) await this.firstFailure();
    const previous = this.committed;
    const committed = this.db
      .transaction(async (tx) => {
        const counts = await storeReadings(tx, this.accountId, readings, this.cache);
        // The failure of an earlier batch rolls this one back.
        await previous;
        return counts;
      })
      .then(this.onCommitted, async (error) => {
        // A batch that failed on its own is done only when the one before it is: that one's
        // failure, if it fails, comes first, and its success is told first.
        await previous;
        throw error;
      });
    // Observed by a later write or by finished(); until then it must not count as unhandled.
    committed.catch(() => {});
    this.committed = committed;
    this.inFlight.push({ committed, meters: new Set(meters) });
  }

  /** Resolves when every batch started is committed; rejects with the first failure in order. */
  finished(): Promise<void> {
    return this.committed;
  }

  /** The first failure in order once every batch started is done, or undefined if none failed. */
  async firstFailure(): Promise<unknown> {
    return this.committed.then(
      () => undefined,
      (failure: unknown) => failure,
    );
  }
}
