// `npm start`: runs the compiled server, compiling it first when dist/ is missing or older than
// src/, and building the console when dist/console is missing or older than its sources.
import { join } from 'node:path';
import { buildConsole, buildServer, consoleIsStale, serverIsStale } from './build.mjs';

const root = new URL('..', import.meta.url).pathname;

if (serverIsStale()) {
  console.log('Compiling the server into dist/ ...');
  buildServer();
}
if (consoleIsStale()) {
  console.log('Building the console into dist/console ...');
  buildConsole();
}
await import(join(root, 'dist/server.js'));
