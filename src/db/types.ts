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
  /**
   * Names what the transaction changes (read cache keys): once it commits, this process reads them
   * from the primary until the replica has replayed the commit (Database.reads).
   */
  changes(keys: readonly string[]): void;
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

/** What /metrics and /readyz tell of a replica. */
export interface ReplicaState {
  /** Whether expensive reads go to the replica now (else all go to the primary). */
  inUse: boolean;
  /**
   * How far the replica's replay is behind the primary, in ms: how long ago the oldest position of
   * the primary's WAL it is not known to have replayed was seen (0 when it has replayed all seen).
   */
  lagMs: number;
  /** Why it is bypassed: not answering, or lagging more than REPLICA_MAX_LAG_MS. */
  bypassed?: 'down' | 'lagging';
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
  /**
   * The executor for an expensive read (profiles, sums, a bill's readings) of what keys name (read
   * cache keys): the replica (DATABASE_REPLICA_URL) while it is current and has replayed the changes
   * of these keys this process knows of, else the primary. Never for a rule's check or inside a
   * transaction; on the embedded database, the database itself.
   */
  reads(...keys: string[]): Executor;
  /** keys changed in a commit already made, by another process (its notice has arrived): as Transaction.changes. */
  changed(keys: readonly string[]): void;
  /** The replica's state, when one is set (for metrics and readiness). */
  replica(): ReplicaState | undefined;
  /** Connections currently checked out (for metrics). */
  connectionsInUse(): number;
  close(): Promise<void>;
}
