import { fileURLToPath } from 'node:url';
import type { App } from '../../http/types.ts';
import { registerConsoleRoutes } from './console.routes.ts';

/** Where `npm run build` puts the console: dist/console (the same from src/ and from dist/). */
const BUILT_CONSOLE = fileURLToPath(new URL('../../../dist/console', import.meta.url));

interface ConsoleDeps {
  /** The built console's directory (BUILT_CONSOLE unless a test names another). */
  directory?: string;
}

/** The web console, served at / (extensions §11.8). */
export async function registerConsoleModule(app: App, { directory = BUILT_CONSOLE }: ConsoleDeps = {}): Promise<void> {
  await registerConsoleRoutes(app, directory);
}
