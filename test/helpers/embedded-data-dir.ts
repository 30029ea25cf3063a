import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { embeddedTemplateDump } from './embedded-template.ts';

/**
 * Initialized embedded data directories for tests whose subject is not how one is created: the
 * first is loaded from the migrated template once (initdb would take seconds each time) and each
 * one asked for is a copy of it.
 */
export function embeddedDataDirs() {
  let seed: Promise<string> | undefined;

  async function makeSeed(): Promise<string> {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'pglite-seed-')), 'pglite');
    const loadDataDir = new Blob([await readFile(await embeddedTemplateDump())]);
    const db = await openEmbeddedDatabase({ dataDir, loadDataDir, owner: 'a test fixture' });
    await db.close();
    return dataDir;
  }

  return {
    /** An initialized data directory at target (which must not exist yet). */
    async copyTo(target: string): Promise<void> {
      seed ??= makeSeed();
      await cp(await seed, target, { recursive: true });
    },
    async remove(): Promise<void> {
      if (seed) await rm(join(await seed, '..'), { recursive: true, force: true });
    },
  };
}
