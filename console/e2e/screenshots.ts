// `npm run screenshots`: the console's main pages, on a seeded in-memory service, saved in docs/.
import type { Page } from 'playwright-core';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openEmbeddedDatabase } from '../../src/db/embedded.ts';
import { migrate } from '../../src/db/migrate.ts';
import { generateSigningKeys } from '../../src/modules/auth/signing-keys.ts';
import { DEMO_EMAIL, DEMO_PASSWORD, seedDemo } from '../../src/seed/demo.ts';
import { launchChromium } from './browser.ts';
import { ensureConsoleBuilt, signIn, visit } from './pages.ts';

const DOCS = new URL('../../docs/', import.meta.url);

await ensureConsoleBuilt();
const db = await openEmbeddedDatabase({});
await migrate(db);
const seed = (await seedDemo(db))!;
const app = await buildApp({
  config: loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false' }),
  db,
  keys: generateSigningKeys(),
});
const base = await app.listen({ port: 0, host: '127.0.0.1' });
const browser = await launchChromium();

async function shoot(page: Page, path: string, name: string, fullPage = true) {
  await visit(page, base, path);
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.hasAttribute('data-drawn')));
  await page.screenshot({ path: new URL(`console-${name}.png`, DOCS).pathname, fullPage });
  console.log(`docs/console-${name}.png`);
}

try {
  const page = await browser.context.newPage();
  await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
  await shoot(page, `/buildings/${seed.blockId}`, 'dashboard');
  await shoot(page, `/meters/${seed.meterIds.grid}`, 'meter');
  await shoot(page, `/tariffs/${seed.tariffIds.gridTariffId}`, 'tariff');
  await shoot(page, '/catalogue?query=Megaflex', 'catalogue');
  await page.setViewportSize({ width: 375, height: 812 });
  await shoot(page, `/buildings/${seed.blockId}`, 'dashboard-phone', false);
} finally {
  await browser.close();
  await app.close();
  await db.close();
}
