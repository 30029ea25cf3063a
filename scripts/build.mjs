// Compiles the server to dist/ (tsc) and copies what the compiled code reads at run time.
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url);
const at = (path) => new URL(path, root).pathname;

export function build() {
  rmSync(at('dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
  cpSync(at('src/db/migrations'), at('dist/db/migrations'), { recursive: true, filter: (f) => !f.endsWith('.ts') });
  writeFileSync(at('dist/.built'), `${new Date().toISOString()}\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) build();
