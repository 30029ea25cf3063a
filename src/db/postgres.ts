import { createHash } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { busyOr } from './database-busy.ts';
import { listenOn } from './postgres-listener.ts';
import { createReplicaRouting } from './replica.ts';
import { typeParsers } from './type-parsers.ts';
import type { Database, Executor, QueryOptions, Transaction } from './types.ts';

const statementNames = new Map<string, string>();

/** A name for a prepared statement, the same for the same text on every connection. */
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, name);
  }
  return name;
}

function rethrowBusy(error: unknown): never {
  throw busyOr(error);
}

/** An executor on a pool or one of its connections; prepared says whether statements may be kept prepared (QueryOptions.reusePlan). */
function executorOf(client: pg.Pool | pg.PoolClient, prepared: boolean): Executor {
  return {
    async query<T>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const values = params as unknown[];
      const result = await client
        .query(prepared && options.reusePlan ? { name: statementName(text), text, values } : { text, values })
        .catch(rethrowBusy);
      return result.rows as T[];
    },
    async exec(script: string) {
      await client.query(script).catch(rethrowBusy);
    },
  };
}

function transactionOf(client: pg.PoolClient, prepared: boolean, changed: Set<string>): Transaction {
  return {
    ...executorOf(client, prepared),
    async copyBinary(table, columns, data) {
      const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`));
      await pipeline(Readable.from([data]), copy).catch(rethrowBusy);
    },
    changes(keys) {
      for (const key of keys) changed.add(key);
    },
  };
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return typeParsers[oid] ?? pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/**
 * A large result arrives faster than it is parsed: the socket hands over up to 2 MB at a time
 * (libuv reads up to 32 chunks per wake-up) and node-postgres parses it all in one go, about
 * 100 ms for a year of one meter's readings, while every other request waits. Pausing the
 * connection's socket after each chunk and resuming it on the next turn of the event loop lets
 * other requests run between the chunks (a chunk, 64 KB, is a few milliseconds of parsing). The
 * socket is made here and handed to node-postgres through its `stream` option; with TLS it is the
 * socket under the encrypted stream, paced the same way.
 */
function pacedSocket(): net.Socket {
  const socket = new net.Socket();
  socket.on('data', () => {
    socket.pause();
    setImmediate(() => socket.resume());
  });
  return socket;
}

interface PostgresDatabase extends Database {
  readonly pool: pg.Pool;
}

interface PoolOptions {
  /** Connections in the pool. */
  max?: number;
  /** How long a query waits for a free connection (or a new one to connect) before failing. */
  connectionTimeoutMs?: number;
  /** PostgreSQL's statement_timeout on every connection; 0 = none. */
  statementTimeoutMs?: number;
}

interface DatabaseOptions extends PoolOptions {
  /**
   * The connection string is a pooler in transaction mode (PgBouncer, DATABASE_POOLED): a server
   * connection is ours for one transaction only, so no statement is kept prepared, and the
   * statement timeout, which such a pooler does not take at connect, is set in each transaction
   * (a single statement then runs in a transaction of its own: two more round trips).
   */
  pooled?: boolean;
  /** Where the LISTEN connection goes (DATABASE_LISTEN_URL): PostgreSQL itself, past any pooler. */
  listenUrl?: string;
  /** A streaming replica for the expensive reads (DATABASE_REPLICA_URL), and how far it may lag. */
  replica?: { url: string; maxLagMs: number };
}

function openPool(
  connectionString: string,
  { max = 10, connectionTimeoutMs = 5000, statementTimeoutMs = 0 }: PoolOptions,
) {
  const pool = new pg.Pool({
    connectionString,
    max,
    types,
    stream: pacedSocket,
    connectionTimeoutMillis: connectionTimeoutMs,
    ...(statementTimeoutMs > 0 ? { statement_timeout: Math.round(statementTimeoutMs) } : {}),
  });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return pool;
}

/** How long a read waits to connect to the replica before it goes to the primary. */
const REPLICA_CONNECTION_TIMEOUT_MS = 1000;

/** A node-postgres pool (and one on the replica, when set) behind the same interface as the embedded database. */
export function openPostgresDatabase(
  connectionString: string,
  { pooled = false, listenUrl = connectionString, replica, ...poolOptions }: DatabaseOptions = {},
): PostgresDatabase {
  const statementTimeoutMs = Math.round(poolOptions.statementTimeoutMs ?? 0);
  const timedInTransactions = pooled && statementTimeoutMs > 0;
  const pool = openPool(
    connectionString,
    timedInTransactions ? { ...poolOptions, statementTimeoutMs: 0 } : poolOptions,
  );
  const begin = timedInTransactions ? `BEGIN; SET LOCAL statement_timeout = ${statementTimeoutMs}` : 'BEGIN';
  const prepared = !pooled;

  async function transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await pool.connect().catch(rethrowBusy);
    const changed = new Set<string>();
    try {
      await client.query(begin);
      const result = await fn(transactionOf(client, prepared, changed));
      await client.query('COMMIT');
      if (changed.size > 0) routing?.changed(changed);
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }

  const onPool = executorOf(pool, prepared);
  const primary: Executor = timedInTransactions
    ? {
        query: (text, params, options) => transaction((tx) => tx.query(text, params, options)),
        exec: (script) => transaction((tx) => tx.exec(script)),
      }
    : onPool;
  const replicaPool = replica
    ? openPool(replica.url, { ...poolOptions, connectionTimeoutMs: REPLICA_CONNECTION_TIMEOUT_MS })
    : undefined;
  const routing =
    replica && replicaPool
      ? createReplicaRouting(primary, executorOf(replicaPool, true), { maxLagMs: replica.maxLagMs })
      : undefined;

  return {
    kind: 'postgres',
    pool,
    ...primary,
    transaction,
    reads: (...keys) => routing?.reads(keys) ?? primary,
    changed: (keys) => routing?.changed(keys),
    replica: () => routing?.state(),
    async ping() {
      await pool.query('SELECT 1');
    },
    async listen(channel, onPayload, onState, staleMs) {
      const listener = listenOn(listenUrl, channel, onPayload, onState, staleMs);
      await listener.connect();
      return listener;
    },
    connectionsInUse: () => pool.totalCount - pool.idleCount,
    async close() {
      routing?.stop();
      await Promise.all([pool.end(), replicaPool?.end()]);
    },
  };
}
