import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { queryOfRange, rangeAround } from '../src/lib/ranges.ts';
import { addMonths, isoDate, localParts, today } from '../src/lib/time.ts';
import { describeInChromium } from './in-chromium.ts';
import { settled, signIn, textOf, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/**
 * What a new user stumbled on in the console, each seen in Chromium against the seeded demo, with
 * access tokens that live 30 seconds. Screenshots go to the temporary directory, to be looked at.
 */

const TZ = 'Africa/Johannesburg';
const TOKEN_TTL_S = 30;
const shot = (name: string) => join(tmpdir(), `console-first-steps-${name}.png`);

describeInChromium('what a new user stumbled on, in Chromium', () => {
  let seeded: SeededConsole;
  let t: TestApp;
  let seed: DemoSeed;
  let base: string;
  let page: Page;
  let consoleErrors: string[];
  /** The console's requests to the API and to its refresh, in order. */
  const apiRequests: string[] = [];

  beforeAll(async () => {
    seeded = await startSeededConsole({ env: { ACCESS_TOKEN_TTL_S: String(TOKEN_TTL_S) } });
    ({ t, seed, base, page, consoleErrors } = seeded);
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/v1/')) apiRequests.push(`${request.method()} ${pathname}`);
    });
    page.on('dialog', (dialog) => void dialog.accept());
  });

  afterAll(async () => seeded?.close());

  /** A token of the demo user for the test's own calls (they live 30 seconds). */
  const freshToken = async () =>
    (await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: DEMO_EMAIL, password: DEMO_PASSWORD } })).body
      .data.access_token as string;
  const api = async (path: string, query: Record<string, string> = {}) =>
    (
      await call(t.app, 'GET', `${path}?${new URLSearchParams({ account_id: seed.accountId, ...query })}`, {
        token: await freshToken(),
      })
    ).body.data;

  it('refreshes a short-lived access token near its end only, not before nearly every request', async () => {
    await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
    await page.locator('section[aria-labelledby="energy-heading"] .chart[data-drawn]').waitFor();
    for (const path of ['/tariffs', '/catalogue', `/buildings/${seed.blockId}`, '/tariffs'])
      await visit(page, base, path);
    const refreshes = apiRequests.filter((r) => r === 'POST /api/v1/auth/refresh').length;
    const others = apiRequests.length - refreshes;
    expect(others).toBeGreaterThan(10);
    // A token of 30 s is refreshed in its last few seconds: at most a few times while the pages load.
    expect(refreshes).toBeLessThanOrEqual(Math.ceil(others / 5));
  });

  it('marks required fields, and saves a unit under a block without an address of its own', async () => {
    await visit(page, base, `/buildings/new?parent=${seed.blockId}`);
    const form = page.getByRole('form', { name: 'New building block' });
    const required = await form
      .locator('input[required], select[required]')
      .evaluateAll((fields) =>
        fields.map((field) => [
          field.getAttribute('name'),
          field.getAttribute('aria-required'),
          getComputedStyle(document.querySelector(`label[for="${field.id}"]`)!, '::after').content,
        ]),
      );
    expect(required).toEqual([['name', 'true', '" *" / ""']]);
    await expect(textOf(form.getByTestId('required-note'))).resolves.toBe('* Required');
    expect(await page.getByLabel('Address').getAttribute('placeholder')).toBe('12 Dock Road');
    await page.getByLabel('Name').fill('Unit 4');
    await page.screenshot({ path: shot('unit-form'), fullPage: true });
    await page.getByRole('button', { name: 'Create building block' }).click();
    await page.waitForURL(/\/buildings\/\d+$/);
    const unitId = Number(/\/buildings\/(\d+)$/.exec(page.url())![1]);
    const [unit, parent] = await Promise.all([
      api(`/api/v1/building_blocks/${unitId}`),
      api(`/api/v1/building_blocks/${seed.blockId}`),
    ]);
    const address = (b: Record<string, unknown>) => [b.address, b.city, b.state, b.postal_code, b.country];
    expect(unit).toMatchObject({ name: 'Unit 4', parent_id: seed.blockId });
    expect(address(unit)).toEqual(address(parent));
  });

  it('offers each dashboard source only the meters of its type, and names meter types in words', async () => {
    await visit(page, base, `/buildings/${seed.blockId}/meters/new`);
    const types = await page
      .getByLabel('Energy source')
      .locator('option')
      .evaluateAll((options) => options.map((o) => o.textContent));
    expect(types).toEqual(['Grid electricity', 'Solar', 'Generator', 'Water', 'Gas', 'HVAC', 'Carbon', 'EV charger']);

    await visit(page, base, `/buildings/${seed.blockId}/dashboard`);
    const offered = (label: string) =>
      page
        .getByLabel(label)
        .locator('option')
        .evaluateAll((options) => options.map((o) => o.textContent));
    const grid = await offered('Grid meter');
    expect(grid).toEqual(expect.arrayContaining(['None', 'Grid supply (DEMO-GRID-001)', 'Site load (DEMO-LOAD-001)']));
    expect(grid).not.toContain('Rooftop solar (DEMO-SOLAR-001)');
    expect(grid).not.toContain('Municipal water (DEMO-WATER-001)');
    expect(await offered('Solar meter')).toEqual(['None', 'Rooftop solar (DEMO-SOLAR-001)']);
    // The demo's water meter, on this building, is offered to no electricity source.
    expect(await offered('Load meter')).not.toContain('Municipal water (DEMO-WATER-001)');
    await page.screenshot({ path: shot('dashboard-config'), fullPage: true });
  });

  it('shows prices with two decimals at least', async () => {
    const tariffId = seed.tariffIds.gridTariffId;
    const items: { id: number; item_type_code: string }[] = await api(`/api/v1/tariffs/${tariffId}/items`);
    const service = items.find((item) => item.item_type_code === 'SERVICE')!;
    const changed = await call(t.app, 'PUT', `/api/v1/tariffs/${tariffId}/items/${service.id}`, {
      token: await freshToken(),
      body: { account_id: seed.accountId, price: 34.3 },
    });
    expect(changed.status).toBe(200);
    await visit(page, base, `/tariffs/${tariffId}`);
    await page.getByText('R 34,30/day').waitFor();
    const prices = await page
      .locator('table td.number')
      .evaluateAll((cells) => cells.map((cell) => cell.textContent ?? ''));
    expect(prices.length).toBeGreaterThan(0);
    for (const price of prices) expect(price).toMatch(/^R\s[\d\s]+,\d{2,6}\//u);
    await page.screenshot({ path: shot('tariff-prices'), fullPage: true });
  });

  it('shows the bills of the month the energy chart shows, and a legend without "Time: –"', async () => {
    const lastMonth = addMonths({ ...today(TZ), day: 1 }, -1);
    const query = new URLSearchParams(
      Object.entries(queryOfRange(rangeAround('month', lastMonth, TZ))).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    await visit(page, base, `/buildings/${seed.blockId}?${query}`);
    // The console's month in its locale (en-ZA): "Oct 2026".
    const month = new Intl.DateTimeFormat('en-ZA', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
      Date.UTC(lastMonth.year, lastMonth.month - 1, 15),
    );
    await page.getByRole('heading', { name: `Bills for ${month}` }).waitFor();
    // As shown: the text that is displayed, not what is hidden.
    const legends = await page.locator('.chart[data-drawn] .u-legend').allInnerTexts();
    // The energy and power charts, and the water supply's kL.
    expect(legends.length).toBe(3);
    for (const legend of legends) expect(legend).not.toMatch(/–|Time/u);
    await page.screenshot({ path: shot('dashboard-month'), fullPage: true });
  });

  it('names the comparison CSV by the local first day of its period', async () => {
    await visit(page, base, '/compare');
    await page.getByRole('button', { name: 'Compare' }).click();
    const result = page.locator('section[data-start]');
    await page.getByTestId('comparison-table').waitFor();
    const start = Date.parse((await result.getAttribute('data-start'))!);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Demo-Campus_tariff-comparison_${isoDate(localParts(start, TZ))}.csv`);
  });

  it('keeps the header on one line at 1280 pixels, the organization switcher whole', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await visit(page, base, '/buildings');
    const layout = await page.evaluate(() => {
      // The rows a group's items sit on: their vertical middles, to the nearest 10 pixels.
      const rows = (selector: string) =>
        new Set(
          [...document.querySelectorAll(selector)].map((e) => {
            const box = e.getBoundingClientRect();
            return Math.round((box.top + box.height / 2) / 10);
          }),
        ).size;
      const select = document.querySelector<HTMLSelectElement>('.account select')!;
      const probe = document.createElement('span');
      probe.style.font = getComputedStyle(select).font;
      probe.style.whiteSpace = 'pre';
      probe.textContent = select.selectedOptions[0]!.textContent;
      document.body.append(probe);
      const textWidth = probe.getBoundingClientRect().width;
      probe.remove();
      return {
        navRows: rows('.nav li'),
        // The name and the account's controls on the first row, the menu on the second.
        accountRows: rows('.brand, .account > *'),
        // The name, its select's padding and its arrow.
        switcherFits: select.getBoundingClientRect().width >= textWidth + 40,
        headerInView: document.querySelector('.top-inner')!.scrollWidth <= window.innerWidth,
      };
    });
    await page.screenshot({ path: shot('header-1280'), clip: { x: 0, y: 0, width: 1280, height: 140 } });
    expect(layout).toEqual({ navRows: 1, accountRows: 1, switcherFits: true, headerInView: true });
  });

  it('clones a catalogue tariff and shows the copy without a refused request', async () => {
    const catalogue: { id: number }[] = (
      await call(t.app, 'GET', '/api/v1/tariffs/catalogue?limit=1&meter_type=ELECTRICITY', {
        token: await freshToken(),
      })
    ).body.data;
    await visit(page, base, `/catalogue/${catalogue[0]!.id}`);
    const before = consoleErrors.length;
    await page.getByRole('button', { name: /^Clone into/u }).click();
    await page.getByText('Cloned from the catalogue into').waitFor();
    await settled(page);
    await page.getByRole('heading', { name: 'Items and tiers' }).waitFor();
    const copyId = Number(/\/tariffs\/(\d+)/.exec(page.url())![1]);
    expect((await api(`/api/v1/tariffs/${copyId}`)).cloned_from).toBe(catalogue[0]!.id);
    await page.screenshot({ path: shot('cloned-tariff'), fullPage: true });
    expect(consoleErrors.slice(before)).toEqual([]);
  });
});
