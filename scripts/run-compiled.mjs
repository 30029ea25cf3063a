// Runs an entry point of the compiled service in dist/ (`npm start`: server.js; `npm run import`:
// cli/import-readings.js), with the arguments after it. It never builds: `npm ci` and
// `npm run build` do; without a build it says so and exits.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { serverIsStale } from './build.mjs';

const [entry = 'server.js', ...args] = process.argv.slice(2);
const path = new URL(`../dist/${entry}`, import.meta.url).pathname;

if (!existsSync(path)) {
  console.error(`The service is not built (dist/${entry} is missing): run \`npm run build\`, then try again.`);
  process.exit(1);
}
if (serverIsStale()) console.warn('src/ has changed since the last build: `npm run build` to run the changes.');
// The entry point sees itself as the program, with its own arguments.
process.argv = [process.argv[0], path, ...args];
await import(pathToFileURL(path).href);
