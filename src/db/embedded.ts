import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction as PGliteTransaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
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
  };
}

export interface EmbeddedDatabase extends Database {
  /** The whole data directory as a tarball, loadable with loadDataDir (fast copies for tests). */
  dump(): Promise<Blob>;
}

/** The embedded PostgreSQL (PGlite): persisted under dataDir, or in memory, or loaded from a dump. */
export async function openEmbeddedDatabase(options: {
  dataDir?: string;
  loadDataDir?: Blob;
}): Promise<EmbeddedDatabase> {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const pg = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    parsers: typeParsers,
    extensions: { pg_trgm },
  });
  return {
    kind: 'embedded',
    ...executorOf(pg),
    transaction: (fn) => pg.transaction((tx) => fn(transactionOf(tx))),
    async ping() {
      await pg.query('SELECT 1');
    },
    async listen(channel, onPayload, onState) {
      const unlisten = await pg.listen(channel, onPayload);
      onState(true);
      return async () => {
        if (!pg.closed) await unlisten();
      };
    },
    connectionsInUse: () => (pg.closed ? 0 : 1),
    async close() {
      if (!pg.closed) await pg.close();
    },
    async dump() {
      return pg.dumpDataDir('none');
    },
  };
}
