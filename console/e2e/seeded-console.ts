import type { Page } from 'playwright-core';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed, seedDemo } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { type LaunchedBrowser, launchChromium } from './browser.ts';
import { ensureConsoleBuilt } from './pages.ts';

/** The console served by a seeded service, the demo user's token for the API, and a page in Chromium. */
export interface SeededConsole {
  t: TestApp;
  seed: DemoSeed;
  base: string;
  token: string;
  browser: LaunchedBrowser;
  page: Page;
  /** Every error the browser logged, with the page's address. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * Builds the console if needed, starts a service with the demo seeded, signs in through the API,
 * and opens a page that collects the browser's errors (those matching `expected` aside).
 */
export async function startSeededConsole(expected?: RegExp): Promise<SeededConsole> {
  await ensureConsoleBuilt();
  const t = await startTestApp();
  const seed = (await seedDemo(t.db))!;
  const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const login = await call(t.app, 'POST', '/api/v1/auth/login', {
    body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });
  const browser = await launchChromium();
  const page = await browser.context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !expected?.test(message.text())) {
      consoleErrors.push(`${page.url()}: ${message.text()}`);
    }
  });
  page.on('pageerror', (error) => consoleErrors.push(`${page.url()}: ${error.message}`));
  return {
    t,
    seed,
    base,
    token: login.body.data.access_token,
    browser,
    page,
    consoleErrors,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}
