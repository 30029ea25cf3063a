import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildConsole, consoleIsStale } from '../scripts/build.mjs';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { type CompiledScripts, compileScripts } from './helpers/compiled-scripts.ts';
import { databaseUrlFor, directUrl } from './helpers/database-url.ts';
import { embeddedTemplateDump } from './helpers/embedded-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplate: { kind: 'embedded'; dumpPath: string } | { kind: 'postgres'; url: string; template: string };
    compiledScripts: CompiledScripts;
  }
}

/**
 * Migrates once into a template, which every test file then copies fresh; compiles once the
 * scripts that tests start as processes; builds the console once when its sources changed (the
 * browser tests, in workers of their own, would each build it at the same time).
 */
export default async function setup(project: TestProject) {
  if (consoleIsStale()) await buildConsole();
  const compiled = await compileScripts();
  project.provide('compiledScripts', compiled.scripts);
  const removeDatabases = await provideDatabaseTemplate(project);
  return async () => {
    compiled.remove();
    await removeDatabases?.();
  };
}

/** The database template, and what removes its databases at the end (PostgreSQL). */
async function provideDatabaseTemplate(project: TestProject) {
  const url = process.env.DATABASE_URL;
  if (url) {
    const template = `ums_template_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: directUrl(url) });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    const db = openPostgresDatabase(databaseUrlFor(directUrl(url), template), { max: 1 });
    await migrate(db);
    await db.close();
    project.provide('databaseTemplate', { kind: 'postgres', url, template });
    return async () => {
      const leftovers = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE $1 OR datname = $2`,
        [`${template}_%`, template],
      );
      for (const { datname } of leftovers.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
    };
  }
  project.provide('databaseTemplate', { kind: 'embedded', dumpPath: await embeddedTemplateDump() });
  return undefined;
}
