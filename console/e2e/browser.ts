import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

/** Debian's Chromium (apt-get install chromium), which the end-to-end tests and screenshots drive. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumInstalled = () => existsSync(CHROMIUM);

/** How long Playwright waits for a page to show something (its default, 30 s, is short under load). */
const TIMEOUT_MS = 100_000;

// Headless, and quiet: this machine's network is closed, and Chromium's own connections would fail.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Chromium with a fresh user-data directory, removed on close. `bypassCSP` lets a test add a script
 * of its own to the page (axe-core), which the service's Content-Security-Policy would refuse.
 */
export async function launchChromium({ bypassCSP = false } = {}): Promise<LaunchedBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'console-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
    bypassCSP,
  });
  // Waits for what a page shows end only a test that hangs: a loaded machine draws pages slowly.
  context.setDefaultTimeout(TIMEOUT_MS);
  context.setDefaultNavigationTimeout(TIMEOUT_MS);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
