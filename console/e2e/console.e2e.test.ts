import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { addDays, isoDate, today } from '../src/lib/time.ts';
import type { LaunchedBrowser } from './browser.ts';
import { CONSOLE_PAGES } from './console-pages.ts';
import { describeInChromium } from './in-chromium.ts';
import { between, settled, signIn, textOf, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/** The console in a real Chromium against a seeded service: what a person sees and does. */

const TZ = 'Africa/Johannesburg';

describeInChromium('the console in Chromium', () => {
  let seeded: SeededConsole;
  let t: TestApp;
  let seed: DemoSeed;
  let base: string;
  let page: Page;
  let token: string;
  let browser: LaunchedBrowser;
  let consoleErrors: string[];

  beforeAll(async () => {
    seeded = await startSeededConsole();
    ({ t, seed, base, browser, page, token, consoleErrors } = seeded);
  });

  afterAll(async () => seeded?.close());

  const api = (path: string, query: Record<string, string>) =>
    call(t.app, 'GET', `${path}?${new URLSearchParams(query)}`, { token });

  it('signs in as the demo user by keyboard and draws the demo building with data', async () => {
    await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
    await page.getByRole('heading', { level: 1, name: 'Demo Campus' }).waitFor();
    const energy = page.locator('section[aria-labelledby="energy-heading"]');
    await energy.locator('.chart[data-drawn]').waitFor();
    const values = await energy
      .locator('[data-testid="energy-table"] td[data-value]')
      .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-value'))));
    expect(values.filter((v) => v > 0).length).toBeGreaterThan(24);

    const energyMs = await between(page, 'sign-in', 'dashboard-energy-drawn');
    const dashboardMs = await between(page, 'sign-in', 'dashboard-drawn');
    console.info(
      `console: energy chart drawn ${Math.round(energyMs)} ms after sign-in, whole dashboard ${Math.round(dashboardMs)} ms`,
    );
  });

  it('keeps no token where a script can read it, and a reload stays signed in through the refresh cookie', async () => {
    const [cookie] = await browser.context.cookies(`${base}/api/v1/auth/refresh`);
    expect(cookie).toMatchObject({
      name: 'ums_refresh_token',
      path: '/api/v1/auth/refresh',
      httpOnly: true,
      sameSite: 'Strict',
      secure: false,
    });
    const readable = () =>
      page.evaluate(() => ({
        stored: [...Object.values(sessionStorage), ...Object.values(localStorage)],
        cookies: document.cookie,
      }));
    const before = await readable();
    expect(before.cookies).toBe('');
    // No stored value is the refresh token or a JWT (an access token).
    expect(before.stored.filter((value) => value.includes(cookie!.value) || /eyJ[\w-]+\.eyJ/.test(value))).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Demo Campus' }).waitFor();
    const [next] = await browser.context.cookies(`${base}/api/v1/auth/refresh`);
    // Signing back in spent the cookie's token: the service set the next one.
    expect(next!.value).not.toBe(cookie!.value);
    const after = await readable();
    expect(after.stored.filter((value) => value.includes(next!.value) || /eyJ[\w-]+\.eyJ/.test(value))).toEqual([]);
  });

  it('keeps a page of another port of the same host from spending the refresh cookie', async () => {
    const [cookie] = await browser.context.cookies(`${base}/api/v1/auth/refresh`);
    // Another port of the same host is the same site: the browser sends it the SameSite=Strict cookie.
    const neighbour = createServer((_, res) => res.end('<!doctype html><title>Another port</title>'));
    await new Promise<void>((resolve) => neighbour.listen(0, '127.0.0.1', resolve));
    const other = await browser.context.newPage();
    try {
      await other.goto(`http://127.0.0.1:${(neighbour.address() as AddressInfo).port}/`);
      const refreshUrl = `${base}/api/v1/auth/refresh`;
      const sent: string[] = [];
      other.on('request', (request) => request.url() === refreshUrl && sent.push(request.method()));
      // The answer is not the page's to read (no CORS): the fetch settles once it has come back.
      await other.evaluate(
        (url) => fetch(url, { method: 'POST', credentials: 'include', mode: 'no-cors' }).catch(() => undefined),
        refreshUrl,
      );
      expect(sent).toEqual(['POST']);
    } finally {
      await other.close();
      neighbour.closeAllConnections();
      await new Promise((resolve) => neighbour.close(resolve));
    }
    const [kept] = await browser.context.cookies(`${base}/api/v1/auth/refresh`);
    expect(kept!.value).toBe(cookie!.value);
    // The console's own refresh still works with it.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Demo Campus' }).waitFor();
  });

  it("shows the month's bill total that the API computes", async () => {
    const bills = page.locator('section[data-month]');
    await bills.waitFor();
    const [start, end] = await Promise.all([bills.getAttribute('data-start'), bills.getAttribute('data-end')]);
    const total = page.getByTestId('month-total');
    const shown = {
      amount: Number(await total.getAttribute('data-amount')),
      currency: await total.getAttribute('data-currency'),
    };
    const cost = await api(`/api/v1/building_blocks/${seed.blockId}/energy-cost`, {
      account_id: seed.accountId,
      start: start!,
      end: end!,
    });
    expect(cost.status).toBe(200);
    expect(shown).toEqual({ amount: cost.body.data.totals.ZAR, currency: 'ZAR' });
    expect(shown.amount).toBeGreaterThan(0);
    // South African English by default: "R 12 345,67".
    expect(await total.textContent()).toContain(
      new Intl.NumberFormat('en-ZA', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(shown.amount),
    );
  });

  it('uploads a small CSV with a progress bar, and the new readings appear in the chart', async () => {
    // A past day before the demo's 90 days of readings: charts end at the start of the current hour.
    const day = isoDate(addDays(today(TZ), -200));
    const csv = [
      'meter_sn,ts,import_kwh,export_kwh',
      ...[10, 11, 12].map((h) => `DEMO-LOAD-001,${day}T${h}:00:00+02:00,123.456,0`),
    ];
    await visit(page, base, '/upload');
    await page.getByLabel('Readings file (CSV)').setInputFiles({
      name: 'readings.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${csv.join('\n')}\n`),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    expect(await textOf(page.getByTestId('upload-outcome'))).toBe(
      'Imported 3 readings (3 inserted, 0 updated) from readings.csv',
    );
    expect(await page.getByLabel('Progress').getAttribute('value')).toBe('100');
    expect(await textOf(page.getByTestId('upload-progress-text'))).toBe('100% · 3 readings stored');

    await visit(page, base, `/meters/${seed.meterIds.load}?range=custom&from=${day}&to=${day}`);
    const rows = page.locator('[data-testid="energy-table"] tbody tr');
    expect(
      await rows.evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-ts'), tr.querySelector('td')?.getAttribute('data-value')]),
      ),
    ).toEqual([10, 11, 12].map((h) => [new Date(`${day}T${h}:00:00+02:00`).toISOString(), '123.456']));
  });

  it('reports a bad file with the import command’s words', async () => {
    await visit(page, base, '/upload');
    await page.getByLabel('Readings file (CSV)').setInputFiles({
      name: 'bad.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('meter_sn,ts,import_kwh\nDEMO-LOAD-001,yesterday,1\n'),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    expect(await textOf(page.getByTestId('upload-outcome'))).toMatch(
      /^Import failed: line 2: ts: .*, found "yesterday"$/,
    );
  });

  it('finds Megaflex in the catalogue, and cloning it adds a tariff', async () => {
    await visit(page, base, '/tariffs');
    const before = Number(await page.getByTestId('tariff-count').getAttribute('data-count'));
    await visit(page, base, '/catalogue');
    await page.getByLabel('Search').fill('Megaflex');
    await page.getByLabel('Search').press('Enter');
    await page.waitForURL(/query=Megaflex/);
    await settled(page);
    const clone = page.getByRole('button', { name: /^Clone Eskom Megaflex/ }).first();
    await clone.click();
    await page.waitForURL(/\/tariffs\/\d+\?cloned=/);
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toContain('Megaflex');
    await page.getByText('Cloned from the catalogue into Demo Utilities.').waitFor();
    await visit(page, base, '/tariffs');
    expect(Number(await page.getByTestId('tariff-count').getAttribute('data-count'))).toBe(before + 1);
  });

  it('draws schedule 3 with peak from 07:00 to 09:00 on a weekday of the low-demand season', async () => {
    await visit(page, base, `/tariffs/${seed.tariffIds.gridTariffId}`);
    const monday = page.locator('section[data-season="SUMMER"] tr[data-day="Monday"]');
    const period = (hour: number) => monday.locator(`td[data-hour="${hour}"]`).getAttribute('data-period');
    expect(await Promise.all([6, 7, 8, 9].map(period))).toEqual(['STANDARD', 'PEAK', 'PEAK', 'STANDARD']);
    expect(await monday.getAttribute('data-runs')).toContain('07:00-09:00 PEAK');
    const schedule = await api(`/api/v1/tariffs/${seed.tariffIds.gridTariffId}/schedule`, {
      account_id: seed.accountId,
    });
    expect(schedule.body.data.id).toBe(3);
  });

  it('scrolls no page sideways at 375 pixels', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      for (const path of CONSOLE_PAGES.filter((p) => !p.signedOut).map((p) => p.path(seed))) {
        await visit(page, base, path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('signs out, and the sign-up page reads well at 375 pixels too', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expect.poll(() => browser.context.cookies(`${base}/api/v1/auth/refresh`)).toEqual([]);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('logged no error in the browser console on any page', () => {
    expect(consoleErrors).toEqual([]);
  });
});
