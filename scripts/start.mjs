// `npm start`: runs the compiled server, compiling it first when dist/ is missing or older than src/.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from './build.mjs';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist/.built');

function newestSourceMs(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSourceMs(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (!existsSync(stamp) || statSync(stamp).mtimeMs < newestSourceMs(join(root, 'src'))) {
  console.log('Compiling the server into dist/ ...');
  build();
}
await import(join(root, 'dist/server.js'));
