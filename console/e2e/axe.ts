import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's source, from node_modules: added to the page as a script, nothing fetched. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One element that breaks one rule. */
export interface Violation {
  rule: string;
  impact: string;
  target: string;
  help: string;
}

/**
 * The page's violations of impact "serious" or "critical" found by axe-core, one per element.
 * The page's browser must bypass the Content-Security-Policy (launchChromium({ bypassCSP: true })).
 */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE_SOURCE });
  const results = await page.evaluate(
    () => (window as unknown as { axe: { run(): Promise<AxeResults> } }).axe.run() as Promise<AxeResults>,
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((node) => ({
        rule: v.id,
        impact: v.impact!,
        target: node.target.join(' '),
        help: `${v.help} (${v.helpUrl})`,
      })),
    );
}
