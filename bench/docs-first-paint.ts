/**
 * How soon /docs shows: the service on PostgreSQL (serving the built Swagger UI of dist/swagger-ui,
 * as `npm start` does), and Chromium loading /docs with an empty cache, then again with its cache.
 * Prints the first contentful paint and the time until the reference's title and its first
 * tag are drawn, the median of RUNS loads each.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/docs-first-paint.ts
 */
import { launchChromium } from '../console/e2e/browser.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPostgresDatabase } from '../src/db/postgres.ts';
import { generateSigningKeys } from '../src/modules/auth/signing-keys.ts';
import { freshDatabase, machine, median, requireDatabaseUrl } from './support.ts';

const RUNS = 5;

interface Load {
  firstPaintMs: number;
  drawnMs: number;
  /** The requests the service answered for it (the others came from the browser's cache). */
  requests: number;
}

const database = await freshDatabase(requireDatabaseUrl(), 'ums_bench_docs');
const db = openPostgresDatabase(database.url);
await migrate(db);
const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn', SEED_DEMO: 'false' });
const app = await buildApp({ config, db, keys: generateSigningKeys() });
let requests = 0;
app.addHook('onRequest', async () => {
  requests++;
});
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const browser = await launchChromium();

/** One load of /docs in a page of the browser's context: cold when the cache was cleared before. */
async function load(): Promise<Load> {
  const page = await browser.context.newPage();
  const served = requests;
  const started = Date.now();
  await page.goto(`${base}/docs`);
  await page.locator('.swagger-ui .info .title').waitFor();
  await page.locator('.opblock-tag').first().waitFor();
  const drawnMs = Date.now() - started;
  const firstPaintMs = await page.evaluate(
    () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
  );
  await page.close();
  return { firstPaintMs, drawnMs, requests: requests - served };
}

async function runs(cold: boolean): Promise<Load[]> {
  const loads: Load[] = [];
  for (let i = 0; i < RUNS; i++) {
    if (cold) {
      const session = await browser.context.newCDPSession(await browser.context.newPage());
      await session.send('Network.clearBrowserCache');
      await session.detach();
    }
    loads.push(await load());
  }
  return loads;
}

await load();
for (const cold of [true, false]) {
  const loads = await runs(cold);
  console.info(
    `${cold ? 'empty cache' : 'with cache '}: first contentful paint ${Math.round(median(loads.map((l) => l.firstPaintMs)))} ms, ` +
      `title and tags drawn ${median(loads.map((l) => l.drawnMs))} ms, ` +
      `${median(loads.map((l) => l.requests))} requests to the service (median of ${RUNS})`,
  );
}
console.info(machine());
await browser.close();
await app.close();
await database.drop();
