import type { Page } from 'playwright-core';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed } from '../../src/seed/demo.ts';
import { settled, signIn, visit } from './pages.ts';

/** A page of the console, at its address in the demo organization. */
export interface ConsolePage {
  /** Its name in the screenshots' files: docs/console-<name>.png and docs/console-<name>-phone.png. */
  name: string;
  path(seed: DemoSeed): string;
  /** Shown to a visitor who has not signed in. */
  signedOut?: true;
  /** What a person does first to see what the page is for, e.g. press "Compare". */
  show?(page: Page): Promise<void>;
}

/** Presses a page's button and waits for what it shows. */
const press =
  (button: string, shown: string) =>
  async (page: Page): Promise<void> => {
    await page.getByRole('button', { name: button, exact: true }).click();
    await page.locator(shown).waitFor();
  };

/**
 * Every page of the console: the accessibility check and the screenshots visit each. (/buildings
 * shows the first building's dashboard.)
 */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  { name: 'sign-in', path: () => '/sign-in', signedOut: true },
  { name: 'sign-up', path: () => '/sign-up', signedOut: true },
  { name: 'dashboard', path: (seed) => `/buildings/${seed.blockId}` },
  { name: 'meter', path: (seed) => `/meters/${seed.meterIds.grid}` },
  { name: 'upload', path: () => '/upload' },
  { name: 'gateways', path: () => '/gateways' },
  { name: 'tariffs', path: () => '/tariffs' },
  { name: 'tariff', path: (seed) => `/tariffs/${seed.tariffIds.gridTariffId}` },
  { name: 'catalogue', path: () => '/catalogue?query=Megaflex' },
  { name: 'catalogue-tariff', path: () => '/catalogue/8' },
  { name: 'organization', path: () => '/organization' },
  { name: 'new-organization', path: () => '/organizations/new' },
  { name: 'new-building-block', path: () => '/buildings/new' },
  { name: 'edit-building-block', path: (seed) => `/buildings/${seed.blockId}/edit` },
  { name: 'new-meter', path: (seed) => `/buildings/${seed.blockId}/meters/new` },
  { name: 'edit-meter', path: (seed) => `/meters/${seed.meterIds.grid}/edit` },
  { name: 'edit-dashboard', path: (seed) => `/buildings/${seed.blockId}/dashboard` },
  { name: 'new-tariff', path: () => '/tariffs/new' },
  { name: 'edit-tariff', path: (seed) => `/tariffs/${seed.tariffIds.gridTariffId}/edit` },
  { name: 'compare', path: () => '/compare', show: press('Compare', '[data-testid="comparison-table"]') },
  { name: 'invoices', path: () => '/invoices' },
  { name: 'invoice', path: (seed) => `/invoices/${seed.invoiceId}` },
  { name: 'recovery', path: () => '/recovery', show: press('Show recovery', '#recovery-heading') },
];

/** The sizes every page is checked and pictured at: a laptop's and a phone's. */
export const VIEWPORTS = [
  { suffix: '', width: 1280, height: 800 },
  { suffix: '-phone', width: 375, height: 800 },
] as const;

export type Viewport = (typeof VIEWPORTS)[number];

/**
 * The limit of a test that visits every page at every viewport: minutes on a loaded machine, so
 * vitest's 120 s a test would end it; like that one, it only ends a test that hangs.
 */
export const EVERY_PAGE_TIMEOUT_MS = 900_000;

/** Opens a page of the list and waits until it has loaded its data and drawn its charts. */
async function open(page: Page, base: string, entry: ConsolePage, seed: DemoSeed): Promise<void> {
  if (entry.signedOut) {
    await page.goto(`${base}${entry.path(seed)}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await settled(page);
  } else {
    await visit(page, base, entry.path(seed));
  }
  if (entry.show) {
    await entry.show(page);
    await settled(page);
  }
  await page.waitForFunction(() => [...document.querySelectorAll('.chart')].every((c) => c.hasAttribute('data-drawn')));
}

/**
 * Shows every page of the list at every viewport in the demo organization, signed out for the
 * signed-out pages (which come first) and as the demo user for the others, and runs `each` on it.
 */
export async function onEveryPage(
  page: Page,
  base: string,
  seed: DemoSeed,
  each: (entry: ConsolePage, viewport: Viewport) => Promise<void>,
): Promise<void> {
  let signedIn = false;
  for (const entry of CONSOLE_PAGES) {
    if (!entry.signedOut && !signedIn) {
      await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
      signedIn = true;
    }
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
      await open(page, base, entry, seed);
      await each(entry, viewport);
    }
  }
}
