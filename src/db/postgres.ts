import { createHash } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { busyOr } from './database-busy.ts';
import { listenOn } from './postgres-listener.ts';
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

function executorOf(client: pg.Pool | pg.PoolClient): Executor {
  return {
    async query<T>(text: string, params: readonly unknown[] = [], options: QueryOptions = {}) {
      const values = params as unknown[];
      const result = await client
        .query(options.reusePlan ? { name: statementName(text), text, values } : { text, values })
        .catch(rethrowBusy);
      return result.rows as T[];
    },
    async exec(script: string) {
      await client.query(script).catch(rethrowBusy);
    },
  };
}

function transactionOf(client: pg.PoolClient): Transaction {
  return {
    ...executorOf(client),
    async copyBinary(table, columns, data) {
      const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN (FORMAT binary)`));
      await pipeline(Readable.from([data]), copy).catch(rethrowBusy);
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

/** A node-postgres pool behind the same interface as the embedded database. */
export function openPostgresDatabase(
  connectionString: string,
  { max = 10, connectionTimeoutMs = 5000, statementTimeoutMs = 0 }: PoolOptions = {},
): PostgresDatabase {
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
  return {
    kind: 'postgres',
    pool,
    ...executorOf(pool),
    async transaction(fn) {
      const client = await pool.connect().catch(rethrowBusy);
      try {
        await client.query('BEGIN');
        const result = await fn(transactionOf(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async listen(channel, onPayload, onState, staleMs) {
      const listener = listenOn(connectionString, channel, onPayload, onState, staleMs);
      await listener.connect();
      return listener;
    },
    connectionsInUse: () => pool.totalCount - pool.idleCount,
    async close() {
      await pool.end();
    },
  };
}
