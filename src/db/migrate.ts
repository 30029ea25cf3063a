import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Executor } from './types.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
// Any constant works; it only has to be the same for every process sharing the database.
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Migrations whose file was renamed after databases had applied them, by their earlier name: the
 * public holidays were computed by code and are now plain rows, so that a migration never changes.
 */
const RENAMED: Readonly<Record<string, string>> = { '0003_public_holidays.ts': '0003_public_holidays.sql' };

async function pendingMigrations(db: Executor): Promise<string[]> {
  await db.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  for (const [before, after] of Object.entries(RENAMED)) {
    await db.query('UPDATE schema_migrations SET name = $2 WHERE name = $1', [before, after]);
  }
  const applied = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.+\.sql$/.test(f)).sort();
  return files.filter((f) => !applied.has(f));
}

/** Applies every migration not yet applied, in file-name order, all in one transaction. */
export async function migrate(db: Database): Promise<string[]> {
  return db.transaction(async (tx) => {
    // Several server processes may start together on one PostgreSQL: only one migrates.
    if (db.kind === 'postgres') {
      // A migration over a large table, or the wait for another process's, may outlast the pool's statement timeout.
      await tx.query('SET LOCAL statement_timeout = 0');
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    }
    const pending = await pendingMigrations(tx);
    for (const file of pending) {
      await tx.exec(await readFile(join(MIGRATIONS_DIR, file), 'utf8'));
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    return pending;
  });
}
