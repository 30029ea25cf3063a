import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seriousViolations, type Violation } from './axe.ts';
import { CONSOLE_PAGES, EVERY_PAGE_TIMEOUT_MS, onEveryPage, VIEWPORTS } from './console-pages.ts';
import { describeInChromium } from './in-chromium.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/** axe-core on every page of the console, at a laptop's and a phone's width, on the demo organization. */
describeInChromium('the console for everyone (axe-core)', () => {
  let c: SeededConsole;

  beforeAll(async () => {
    c = await startSeededConsole({ bypassCSP: true });
  });

  afterAll(async () => {
    await c?.close();
  });

  it(
    'finds no serious or critical violation on any page at 1280 and 375 pixels',
    async () => {
      const found: (Violation & { page: string })[] = [];
      const checked: string[] = [];
      await onEveryPage(c.page, c.base, c.seed, async (entry, viewport) => {
        const page = `${entry.name}${viewport.suffix}`;
        checked.push(page);
        for (const violation of await seriousViolations(c.page)) found.push({ page, ...violation });
      });
      for (const v of found) console.error(`${v.page}: ${v.impact} ${v.rule} at ${v.target}: ${v.help}`);
      expect(found).toEqual([]);
      expect(checked).toHaveLength(CONSOLE_PAGES.length * VIEWPORTS.length);
      expect(c.consoleErrors).toEqual([]);
    },
    EVERY_PAGE_TIMEOUT_MS,
  );

  it('finds no serious or critical violation on the API reference (/docs), its first tag and operation open', async () => {
    await c.page.goto(`${c.base}/docs`);
    await c.page.locator('.opblock-tag').first().click();
    await c.page.locator('.opblock-summary').first().click();
    await c.page.locator('.opblock-body').first().waitFor();
    // Swagger UI's own markup, which no option changes: a button inside each operation's summary
    // button, and its servers picker without a label. Every colour is ours to fix (docs-theme.ts).
    const swaggerMarkup = (v: Violation) =>
      v.rule === 'nested-interactive' || (v.rule === 'select-name' && v.target === '#servers');
    const found = (await seriousViolations(c.page)).filter((v) => !swaggerMarkup(v));
    for (const v of found) console.error(`/docs: ${v.impact} ${v.rule} at ${v.target}: ${v.help}`);
    expect(found).toEqual([]);
    await c.page.screenshot({ path: join(tmpdir(), 'docs-reference.png') });
  });
});
