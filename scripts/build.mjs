// Compiles the server to dist/ (tsc), copies what the compiled code reads at run time, and builds
// the web console into dist/console (Vite), with gzip and brotli copies of its files.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const root = new URL('..', import.meta.url);
const at = (path) => new URL(path, root).pathname;

const SERVER_STAMP = at('dist/.built');
const CONSOLE_STAMP = at('dist/console/.built');
/** What the console is built from: its sources and the readings CSV reader it shares with the server. */
const CONSOLE_SOURCES = [
  'console/src',
  'console/index.html',
  'console/public',
  'console/vite.config.ts',
  'src/modules/timeseries/import',
];

function newestMs(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMs(join(path, entry)));
  return newest;
}

const olderThan = (stamp, sources) =>
  !existsSync(stamp) || statSync(stamp).mtimeMs < Math.max(...sources.map((s) => newestMs(at(s))));

export const serverIsStale = () => olderThan(SERVER_STAMP, ['src']);
export const consoleIsStale = () => olderThan(CONSOLE_STAMP, CONSOLE_SOURCES);

function precompress(directory) {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) precompress(path);
    else if (/\.(js|css|html|svg|json)$/.test(entry.name)) {
      const data = readFileSync(path);
      writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
      writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }
  }
}

export function buildConsole() {
  const vite = join(createRequire(at('console/package.json')).resolve('vite/package.json'), '../bin/vite.js');
  execFileSync(process.execPath, [vite, 'build', '--config', at('console/vite.config.ts'), '--logLevel', 'warn'], {
    stdio: 'inherit',
  });
  precompress(at('dist/console'));
  writeFileSync(CONSOLE_STAMP, `${new Date().toISOString()}\n`);
}

export function buildServer() {
  for (const entry of existsSync(at('dist')) ? readdirSync(at('dist')) : []) {
    if (entry !== 'console') rmSync(at(`dist/${entry}`), { recursive: true, force: true });
  }
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', at('tsconfig.build.json')], { stdio: 'inherit' });
  cpSync(at('src/db/migrations'), at('dist/db/migrations'), { recursive: true, filter: (f) => !f.endsWith('.ts') });
  writeFileSync(SERVER_STAMP, `${new Date().toISOString()}\n`);
}

export function build() {
  buildServer();
  buildConsole();
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) build();
