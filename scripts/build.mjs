// `npm run build` (and `npm ci`, through the prepare script): compiles the server to dist/ (tsc),
// copies what the compiled code reads at run time, builds the web console into dist/console
// (Vite) and copies Swagger UI's assets into dist/swagger-ui, with gzip and brotli copies of the
// console's and Swagger UI's files for the server to send as they are. Each step says when it
// starts and how long it took.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const root = new URL('..', import.meta.url);
const at = (path) => new URL(path, root).pathname;
const require = createRequire(import.meta.url);

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
/** Where the build puts Swagger UI's assets, served by the reference page at /docs. */
const SWAGGER_UI = at('dist/swagger-ui');

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

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(0);

/**
 * Runs a step, saying when it starts, that it still runs every 15 s (the type-checking compiler
 * prints nothing for a minute on a busy machine) and how long it took.
 */
async function step(title, run) {
  console.log(`${title} ...`);
  const started = performance.now();
  const ticker = setInterval(() => console.log(`  still working (${seconds(started)} s)`), 15_000);
  try {
    await run();
  } finally {
    clearInterval(ticker);
  }
  console.log(`  done in ${seconds(started)} s`);
}

/** Runs a Node.js script with the arguments, its output shown; fails when it fails. */
function runNode(script, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`${script} failed (exit code ${code})`)),
    );
  });
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Writes file.gz and file.br next to every text file of the directory (those worth compressing). */
async function precompress(directory) {
  const files = readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(js|css|html|svg|json)$/.test(name))
    .map((name) => join(directory, name));
  await Promise.all(
    files.map(async (path) => {
      const data = readFileSync(path);
      writeFileSync(`${path}.gz`, await gzipped(data, { level: 9 }));
      writeFileSync(`${path}.br`, await brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
    }),
  );
}

export async function buildConsole() {
  const vite = join(createRequire(at('console/package.json')).resolve('vite/package.json'), '../bin/vite.js');
  await step('Building the console into dist/console (Vite)', () =>
    runNode(vite, ['build', '--config', at('console/vite.config.ts')]),
  );
  await step('Compressing the console (gzip and brotli)', () => precompress(at('dist/console')));
  writeFileSync(CONSOLE_STAMP, `${new Date().toISOString()}\n`);
}

export async function buildServer() {
  for (const entry of existsSync(at('dist')) ? readdirSync(at('dist')) : []) {
    if (entry !== 'console') rmSync(at(`dist/${entry}`), { recursive: true, force: true });
  }
  const tsc = require.resolve('typescript/bin/tsc');
  await step('Compiling the server into dist/ (tsc)', () => runNode(tsc, ['-p', at('tsconfig.build.json')]));
  cpSync(at('src/db/migrations'), at('dist/db/migrations'), { recursive: true, filter: (f) => !f.endsWith('.ts') });
  await step("Copying and compressing Swagger UI's assets into dist/swagger-ui", async () => {
    cpSync(join(dirname(require.resolve('@fastify/swagger-ui/package.json')), 'static'), SWAGGER_UI, {
      recursive: true,
    });
    await precompress(SWAGGER_UI);
  });
  writeFileSync(SERVER_STAMP, `${new Date().toISOString()}\n`);
}

export async function build() {
  await buildServer();
  await buildConsole();
  console.log('Built: `npm start` runs it.');
}

/**
 * At install (the prepare script), without the dev dependencies (`npm ci --omit=dev`) there is
 * nothing to build with: an existing build is kept, and its absence is an error that says what to do.
 */
async function buildAtInstall() {
  try {
    require.resolve('typescript/bin/tsc');
  } catch {
    if (existsSync(at('dist/server.js'))) {
      console.log('The build tools (dev dependencies) are not installed: keeping the build in dist/.');
      return;
    }
    console.error('Cannot build without the dev dependencies: run `npm ci`, then `npm prune --omit=dev` if you wish.');
    process.exit(1);
  }
  await build();
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await (process.argv.includes('--at-install') ? buildAtInstall() : build());
}
