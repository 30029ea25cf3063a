import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

const ROOT = join(import.meta.dirname, '..', '..');

/**
 * The server and the import command as plain JavaScript, which a test runs as its own process:
 * `inject('compiledScripts')` in a test.
 */
export interface CompiledScripts {
  server: string;
  importCommand: string;
}

/**
 * Compiles the server and the import command once for the whole run (a second or so), so that
 * tests that start them as processes wait for no TypeScript compiler at each start: under load,
 * tsx took most of 30 s to start three servers. Each is bundled with esbuild into one file (the
 * packages stay in node_modules, whence it imports them), in a directory of node_modules/.cache
 * removed by the returned function. The migrations are copied next to them, where the compiled
 * code looks for them.
 */
export async function compileScripts(): Promise<{ scripts: CompiledScripts; remove(): void }> {
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const outdir = mkdtempSync(join(cache, 'test-scripts-'));
  await build({
    entryPoints: {
      server: join(ROOT, 'src', 'server.ts'),
      'import-readings': join(ROOT, 'src', 'cli', 'import-readings.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  cpSync(join(ROOT, 'src', 'db', 'migrations'), join(outdir, 'migrations'), { recursive: true });
  return {
    scripts: { server: join(outdir, 'server.js'), importCommand: join(outdir, 'import-readings.js') },
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
}
