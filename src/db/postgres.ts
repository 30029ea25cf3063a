import pg from 'pg';
import { typeParsers } from './type-parsers.ts';
import type { Database, Executor } from './types.ts';

function executorOf(client: pg.Pool | pg.PoolClient): Executor {
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as T[];
    },
    async exec(script: string) {
      await client.query(script);
    },
  };
}

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    return typeParsers[oid] ?? pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export interface PostgresDatabase extends Database {
  readonly pool: pg.Pool;
}

/** A node-postgres pool behind the same interface as the embedded database. */
export function openPostgresDatabase(connectionString: string, max = 10): PostgresDatabase {
  const pool = new pg.Pool({ connectionString, max, types, connectionTimeoutMillis: 5000 });
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return {
    kind: 'postgres',
    pool,
    ...executorOf(pool),
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(executorOf(client));
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
    connectionsInUse: () => pool.totalCount - pool.idleCount,
    async close() {
      await pool.end();
    },
  };
}
