// `npm run screenshots`: every page of the console at a laptop's and a phone's width, on a seeded
// in-memory service, saved in docs/ as console-<page>.png and console-<page>-phone.png.
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { seedDemo } from '../../src/seed/demo.ts';
import { launchChromium } from './browser.ts';
import { onEveryPage } from './console-pages.ts';
import { ensureConsoleBuilt } from './pages.ts';

const DOCS = new URL('../../docs/', import.meta.url);

await ensureConsoleBuilt();
const db = await openEmbeddedDatabase({});
await migrate(db);
const app = await buildApp({
  // Every picture loads its page afresh, which refreshes the session: more than the 20 a minute
  // the service allows one client by default.
  config: loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false', AUTH_RATE_LIMIT_PER_MIN: '0' }),
  db,
  keys: generateSigningKeys(),
});
const seed = (await seedDemo({ app, db }))!;
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const browser = await launchChromium();

try {
  const page = await browser.context.newPage();
  await onEveryPage(page, base, seed, async (entry, viewport) => {
    const file = `console-${entry.name}${viewport.suffix}.png`;
    await page.screenshot({ path: new URL(file, DOCS).pathname, fullPage: true });
    console.log(`docs/${file}`);
  });
} finally {
  await browser.close();
  await app.close();
  await db.close();
}
