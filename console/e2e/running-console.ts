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
  consoleErrors: string[];
  close(): Promise<void>;
}

export interface ConsoleOptions {
  /** The address the service listens on: 127.0.0.1 unless a test serves the console on the network. */
  host?: string;
  /** Lets a test add a script of its own to the page (see launchChromium). */
  bypassCSP?: boolean;
  /** Errors the browser logs that a test causes on purpose (a refusal it provokes), left out. */
  expectedErrors?: RegExp;
  /** The service's settings the test sets (see startTestApp). */
  env?: Record<string, string>;
}

/** Builds the console when it is stale, starts the service, and opens a page in Chromium. */
export async function startConsole({
  host = '127.0.0.1',
  bypassCSP = false,
  expectedErrors,
  env,
}: ConsoleOptions = {}): Promise<RunningConsole> {
  await ensureConsoleBuilt();
  const t = await startTestApp(env);
  const base = await t.app.listen({ port: 0, host });
  const browser = await launchChromium({ bypassCSP });
  const page = await browser.context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' || expectedErrors?.test(message.text())) return;
    const { url } = message.location();
    consoleErrors.push(`${page.url()}: ${message.text()}${url && url !== page.url() ? ` (${url})` : ''}`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  return {
    t,
    base,
    browser,
    page,
    consoleErrors,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
