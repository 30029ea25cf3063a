import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { openDatabase } from '../../src/db/open.ts';
import type { Database } from '../../src/db/types.ts';
import { databaseEnv, databaseUrlFor, directUrl } from './database-url.ts';

export interface TestDatabase {
  db: Database;
  /** Connection string of this copy (PostgreSQL only): for tests that start other processes. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a copy of the template made by the global setup,
 * opened as the service opens its database (through the pooler and with the replica when the
 * environment names them); env overrides those settings (e.g. REPLICA_MAX_LAG_MS).
 */
export async function createTestDatabase(env: Record<string, string> = {}): Promise<TestDatabase> {
  const template = inject('databaseTemplate');
  if (template.kind === 'embedded') {
    const dump = await readFile(template.dumpPath);
    const db = await openEmbeddedDatabase({ loadDataDir: new Blob([dump]) });
    return { db, drop: () => db.close() };
  }
  const name = `${template.template}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: directUrl(template.url) });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(template.url, name);
  const db = await openDatabase(loadConfig({ ...databaseEnv(url), STATEMENT_TIMEOUT_S: '0', ...env }));
  return {
    db,
    url,
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: directUrl(template.url) });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
