export interface QueryOptions {
  /**
   * Keep the statement prepared on the connection, so that later runs skip parsing and may reuse
   * a generic plan. Only for a statement whose best plan is the same whatever its values: a
   * generic plan can be far slower than one made for the values at hand.
   */
  reusePlan?: boolean;
}

/** Runs parameterized SQL ($1, $2, ...) and returns the rows. Every query of the service goes through one. */
export interface Executor {
  query<T = Record<string, unknown>>(text: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/** An executor inside a transaction, which can also bulk-load rows. */
export interface Transaction extends Executor {
  /**
   * Loads rows into table (columns in that order) from data in COPY's binary format
   * (src/db/copy-binary.ts): much faster than INSERT for many rows. Fails as a whole, like any
   * statement, on a constraint violation. table and columns are the caller's constants.
   */
  copyBinary(table: string, columns: readonly string[], data: Buffer<ArrayBuffer>): Promise<void>;
}

/**
 * A LISTEN subscription's state: 'listening' (notifications arrive within the staleness bound),
 * 'late' (its heartbeat has not come back in time: they may be late), 'lost' (the connection is
 * gone and being replaced: some may never arrive).
 */
export type ListenerState = 'listening' | 'late' | 'lost';

export interface Subscription {
  /** Whether every notification committed more than the staleness bound ago has arrived (now, to the millisecond). */
  isCurrent(): boolean;
  stop(): Promise<void>;
}

export type DatabaseKind = 'embedded' | 'postgres';

/** The database interface: an executor plus transactions, a health probe and shutdown. */
export interface Database extends Executor {
  readonly kind: DatabaseKind;
  /** Runs fn inside one transaction: committed when fn resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /**
   * Subscribes to NOTIFY on a channel. onState tells each change of the subscription's state;
   * isCurrent() of the subscription tells, at the moment it is asked, whether every notification
   * committed more than staleMs ago has arrived.
   */
  listen(
    channel: string,
    onPayload: (payload: string) => void,
    onState: (state: ListenerState) => void,
    staleMs: number,
  ): Promise<Subscription>;
  /** Connections currently checked out (for metrics). */
  connectionsInUse(): number;
  close(): Promise<void>;
}
