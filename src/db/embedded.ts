import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction as PGliteTransaction } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type DataDirLock, lockDataDir } from './data-dir-lock.ts';
import { typeParsers } from './type-parsers.ts';
import type { Database, Executor, Transaction } from './types.ts';

function executorOf(target: PGlite | PGliteTransaction): Executor {
  return {
    async query<T>(text: string, params: readonly unknown[] = []) {
      const result = await target.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string) {
      await target.exec(script);
    },
  };
}

function transactionOf(tx: PGliteTransaction): Transaction {
  return {
    ...executorOf(tx),
    async copyBinary(table, columns, data) {
      // PGlite reads COPY's input from the blob it is given, as the device /dev/blob.
      await tx.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' (FORMAT binary)`, [], {
        blob: new Blob([data]),
      });
    },
    // One database, no replica.
    changes() {},
  };
}

interface EmbeddedDatabase extends Database {
  /** The whole data directory as a tarball, loadable with loadDataDir (fast copies for tests). */
  dump(): Promise<Blob>;
}

/**
 * The embedded PostgreSQL (PGlite): persisted under dataDir, or in memory, or loaded from a dump.
 * A dataDir belongs to one process at a time: this one holds its lock until close (or exit), and
 * the opening fails with DatabaseInUseError while another live process holds it. owner says what
 * this process is, for that message.
 */
export async function openEmbeddedDatabase(options: {
  dataDir?: string;
  loadDataDir?: Blob;
  owner?: string;
}): Promise<EmbeddedDatabase> {
  let lock: DataDirLock | undefined;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = lockDataDir(options.dataDir, options.owner);
  }
  let pg: PGlite;
  try {
    pg = await PGlite.create({
      dataDir: options.dataDir,
      loadDataDir: options.loadDataDir,
      parsers: typeParsers,
      extensions: { pg_trgm, btree_gist },
    });
  } catch (error) {
    lock?.release();
    throw error;
  }
  const executor = executorOf(pg);
  return {
    kind: 'embedded',
    ...executor,
    reads: () => executor,
    changed() {},
    replica: () => undefined,
    transaction: (fn) => pg.transaction((tx) => fn(transactionOf(tx))),
    async ping() {
      await pg.query('SELECT 1');
    },
    // One process, no connection to lose: a notification arrives as its transaction commits.
    async listen(channel, onPayload, onState) {
      const unlisten = await pg.listen(channel, onPayload);
      onState('listening');
      return {
        isCurrent: () => !pg.closed,
        async stop() {
          if (!pg.closed) await unlisten();
        },
      };
    },
    connectionsInUse: () => (pg.closed ? 0 : 1),
    async close() {
      try {
        if (!pg.closed) await pg.close();
      } finally {
        lock?.release();
      }
    },
    async dump() {
      return pg.dumpDataDir('none');
    },
  };
}
