import type { Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { type LaunchedBrowser, launchChromium } from './browser.ts';
import { ensureConsoleBuilt } from './pages.ts';

/** The service on a fresh database, serving the console, and a Chromium page to drive it. */
export interface RunningConsole {
  t: TestApp;
  /** The console's address, e.g. http://127.0.0.1:41234. */
  base: string;
  browser: LaunchedBrowser;
  page: Page;
  /**
   * What the browser logged as an error (with the address of a resource that failed to load), and
   * the scripts' uncaught errors, each after its page's address.
   */
  errors: string[];
  close(): Promise<void>;
}

/** Builds the console when it is stale, starts the service listening on `host`, and opens Chromium. */
export async function startConsole({ host = '127.0.0.1', bypassCSP = false } = {}): Promise<RunningConsole> {
  await ensureConsoleBuilt();
  const t = await startTestApp();
  const base = await t.app.listen({ port: 0, host });
  const browser = await launchChromium({ bypassCSP });
  const page = await browser.context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    errors.push(`${page.url()}: ${message.text()}${url && url !== page.url() ? ` (${url})` : ''}`);
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return {
    t,
    base,
    browser,
    page,
    errors,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
