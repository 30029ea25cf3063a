import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DemoSeed, seedDemo } from '../../src/seed/demo.ts';
import { seriousViolations, type Violation } from './axe.ts';
import { CONSOLE_PAGES, onEveryPage, VIEWPORTS } from './console-pages.ts';
import { describeInChromium } from './in-chromium.ts';
import { type RunningConsole, startConsole } from './running-console.ts';

/** axe-core on every page of the console, at a laptop's and a phone's width, on the demo organization. */
describeInChromium('the console for everyone (axe-core)', () => {
  let c: RunningConsole;
  let seed: DemoSeed;

  beforeAll(async () => {
    c = await startConsole({ bypassCSP: true });
    seed = (await seedDemo(c.t.db))!;
  });

  afterAll(async () => {
    await c?.close();
  });

  it('finds no serious or critical violation on any page at 1280 and 375 pixels', async () => {
    const found: (Violation & { page: string })[] = [];
    const checked: string[] = [];
    await onEveryPage(c.page, c.base, seed, async (entry, viewport) => {
      const page = `${entry.name}${viewport.suffix}`;
      checked.push(page);
      for (const violation of await seriousViolations(c.page)) found.push({ page, ...violation });
    });
    for (const v of found) console.error(`${v.page}: ${v.impact} ${v.rule} at ${v.target}: ${v.help}`);
    expect(found).toEqual([]);
    expect(checked).toHaveLength(CONSOLE_PAGES.length * VIEWPORTS.length);
    expect(c.errors).toEqual([]);
  });
});
