import type { Locator, Page } from 'playwright-core';
import { buildConsole, consoleIsStale } from '../../scripts/build.mjs';

/** Builds the console when dist/console is missing or older than its sources. */
export async function ensureConsoleBuilt(): Promise<void> {
  if (consoleIsStale()) await buildConsole();
}

/** Signs in through the form, by keyboard. */
export async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/`);
  await page.getByLabel('E-mail').waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Waits until no loading message is left on the page. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.querySelectorAll('[role="status"].status').length === 0);
}

/** A page of the console at an address, settled. */
export async function visit(page: Page, base: string, path: string): Promise<void> {
  await page.goto(`${base}${path}`);
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  await settled(page);
}

/** The time between two performance marks of the page, in milliseconds. */
export async function between(page: Page, from: string, to: string): Promise<number> {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, to);
  return page.evaluate(
    ([a, b]) => performance.getEntriesByName(b!)[0]!.startTime - performance.getEntriesByName(a!)[0]!.startTime,
    [from, to],
  );
}

/** The text of an element once it is there. */
export async function textOf(locator: Locator): Promise<string> {
  await locator.waitFor();
  return ((await locator.textContent()) ?? '').trim();
}
