import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { openPostgresDatabase } from '../../src/db/postgres.ts';
import type { Database } from '../../src/db/types.ts';
import { databaseUrlFor } from './database-url.ts';

export interface TestDatabase {
  db: Database;
  /** Connection string of this copy (PostgreSQL only): for tests that start other processes. */
  url?: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file: a copy of the template made by the global setup. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('databaseTemplate');
  if (template.kind === 'embedded') {
    const dump = await readFile(template.dumpPath);
    const db = await openEmbeddedDatabase({ loadDataDir: new Blob([dump]) });
    return { db, drop: () => db.close() };
  }
  const name = `${template.template}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: template.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.template}`);
  } finally {
    await admin.end();
  }
  const url = databaseUrlFor(template.url, name);
  const db = openPostgresDatabase(url);
  return {
    db,
    url,
    async drop() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: template.url });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
