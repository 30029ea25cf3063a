import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeMigration, Database, Executor } from './types.ts';

const MIGRATIONS_DIR = join(import.meta.dirname, 'migrations');
// Any constant works; it only has to be the same for every process sharing the database.
const MIGRATION_LOCK_KEY = 727_001;

async function pendingMigrations(db: Executor): Promise<string[]> {
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const applied = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_.+\.(sql|ts)$/.test(f)).sort();
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
      const path = join(MIGRATIONS_DIR, file);
      if (file.endsWith('.sql')) {
        await tx.exec(await readFile(path, 'utf8'));
      } else {
        const { migration } = (await import(pathToFileURL(path).href)) as { migration: CodeMigration };
        await migration.up(tx);
      }
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
    }
    return pending;
  });
}
