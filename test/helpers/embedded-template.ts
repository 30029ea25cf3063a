import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'embedded-test-template');
const MIGRATIONS_DIR = join(ROOT, 'src', 'db', 'migrations');
/** What the template is made of and with: a change to any of them makes a new one. */
const INPUTS = [
  import.meta.filename,
  join(ROOT, 'src', 'db', 'migrate.ts'),
  join(ROOT, 'src', 'db', 'embedded.ts'),
  join(ROOT, 'node_modules', '@electric-sql', 'pglite', 'package.json'),
];

async function templateKey(): Promise<string> {
  const hash = createHash('sha256');
  const migrations = (await readdir(MIGRATIONS_DIR)).sort().map((name) => join(MIGRATIONS_DIR, name));
  for (const file of [...INPUTS, ...migrations]) {
    hash
      .update(file.slice(ROOT.length))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * The path of a tarball of the migrated embedded database, which every test file loads a copy of.
 * Making it (initdb, then the migrations) takes seconds, so it is kept under node_modules/.cache,
 * named by a hash of its inputs, and made again only when one of them changes.
 */
export async function embeddedTemplateDump(): Promise<string> {
  const path = join(CACHE_DIR, `template-${await templateKey()}.tar`);
  if (existsSync(path)) return path;
  await mkdir(CACHE_DIR, { recursive: true });
  const db = await openEmbeddedDatabase({});
  await migrate(db);
  // A test database is small: 16 MB of shared buffers instead of 128 starts a copy a third sooner.
  await db.query("ALTER SYSTEM SET shared_buffers = '16MB'");
  const dump = Buffer.from(await (await db.dump()).arrayBuffer());
  await db.close();
  for (const name of await readdir(CACHE_DIR)) {
    if (name.endsWith('.tar') && join(CACHE_DIR, name) !== path) await rm(join(CACHE_DIR, name), { force: true });
  }
  // Written aside and renamed, so that a run starting meanwhile never reads half a file.
  const partial = `${path}.${process.pid}`;
  await writeFile(partial, dump);
  await rename(partial, path);
  return path;
}
