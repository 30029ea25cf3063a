// Runs the sample request collection top to bottom with Newman against a freshly started demo
// server (compiled, embedded database in a temporary directory, a free port); fails on any failed
// test. `npm run build` first. Usage: node scripts/run-collection.mjs
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import newman from 'newman';

const root = new URL('..', import.meta.url).pathname;
const STARTED = /Utility management service at (http:\/\/\S+) /;
const START_TIMEOUT_MS = 120_000;

/** Starts the compiled server; resolves with its address once it says it listens. */
function startServer(env) {
  const server = spawn(process.execPath, [join(root, 'dist/server.js')], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const address = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The server did not start in time')), START_TIMEOUT_MS);
    server.once('exit', (code) => reject(new Error(`The server exited with code ${code}`)));
    createInterface({ input: server.stdout }).on('line', (line) => {
      const found = STARTED.exec(line);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    });
  });
  return { server, address };
}

function runCollection(collection) {
  return new Promise((resolve, reject) => {
    newman.run({ collection, reporters: ['cli'] }, (error, summary) => (error ? reject(error) : resolve(summary)));
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'ums-collection-'));
const serviceRoleKey = randomBytes(24).toString('hex');
const { server, address } = startServer({
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  SEED_DEMO: 'true',
  SERVICE_ROLE_KEY: serviceRoleKey,
  LOG_LEVEL: 'info',
});
let failed = true;
try {
  const baseUrl = await address;
  const collection = await (await fetch(`${baseUrl}/api/v1/collection.json`)).json();
  const values = { baseUrl, serviceRoleKey };
  for (const variable of collection.variable) {
    if (variable.key in values) variable.value = values[variable.key];
  }
  const items = collection.item.flatMap((folder) => folder.item).length;
  const summary = await runCollection(collection);
  const { assertions } = summary.run.stats;
  // Every request of the collection has its test: fewer assertions than requests is a failure too.
  failed = summary.run.failures.length > 0 || assertions.failed > 0 || assertions.total < items;
  console.log(`collection: ${items} requests, ${assertions.total} assertions, ${assertions.failed} failed`);
} finally {
  server.kill('SIGTERM');
  await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve()));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
