import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/seed/demo.ts';
import { DEMO_GRID_SERIAL } from '../../src/seed/demo-sites.ts';
import { call } from '../../test/helpers/http.ts';
import { describeInChromium } from './in-chromium.ts';
import { settled, signIn, textOf, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/** Where the screenshot of the gateways page goes, to be looked at. */
const SCREENSHOT = process.env.GATEWAYS_SCREENSHOT;

describeInChromium('a gateway made in the console', () => {
  let running: SeededConsole;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    running = await startSeededConsole();
    ({ page, base } = running);
    await running.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
  });
  afterAll(async () => running?.close());

  it('shows its key once with the lines to use it, copies it, and shows when it last pushed a reading', async () => {
    await visit(page, base, '/gateways');
    await page.getByRole('textbox', { name: 'Name' }).fill('Main board logger');
    await page.getByRole('checkbox', { name: `Grid supply (${DEMO_GRID_SERIAL})` }).check();
    await page.getByRole('button', { name: 'Create gateway' }).click();

    const shown = page.getByTestId('gateway-key');
    const key = await page.getByRole('textbox', { name: 'Key' }).inputValue();
    expect(key).toMatch(/^ugw_[A-Za-z0-9_-]{32}$/);
    const lines = await textOf(shown);
    expect(lines).toContain(
      `curl -X POST '${base}/api/v1/timeseries/electricity/readings' -H 'authorization: Gateway ${key}'`,
    );
    expect(lines).toMatch(new RegExp(`mosquitto_pub -h BROKER_HOST -q 1 -t 'ums/\\d+/readings' -m '\\{"key":"${key}"`));
    await settled(page);
    expect(await textOf(page.locator('[data-gateway="Main board logger"] [data-testid="last-seen"]'))).toBe(
      'Never seen',
    );

    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(key);
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-key.png'), fullPage: true });

    // The logger on site pushes a reading with the copied key.
    const hour = new Date();
    hour.setUTCMinutes(0, 0, 0);
    const pushed = await fetch(`${base}/api/v1/timeseries/electricity/readings`, {
      method: 'POST',
      headers: { authorization: `Gateway ${copied}`, 'content-type': 'application/json' },
      body: JSON.stringify({ meter_sn: DEMO_GRID_SERIAL, readings: [{ ts: hour.toISOString(), import_kwh: 4.2 }] }),
    });
    expect(pushed.status).toBe(200);

    await visit(page, base, '/gateways');
    const lastSeen = await textOf(page.locator('[data-gateway="Main board logger"] [data-testid="last-seen"]'));
    expect(lastSeen).toMatch(/^Last seen \d/);
    // Shown once: the key is not on the page any more.
    expect(await page.content()).not.toContain(key);
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(running.consoleErrors).toEqual([]);
  });

  it("warns on the building's page when a gateway of its meters has been silent for more than a day", async () => {
    const made = await call(running.t.app, 'POST', '/api/v1/gateways', {
      token: running.token,
      body: { account_id: running.seed.accountId, name: 'Quiet logger', meter_ids: [running.seed.meterIds.solar] },
    });
    expect(made.status).toBe(201);
    await running.t.db.query("UPDATE gateways SET last_seen_at = now() - interval '25 hours' WHERE id = $1", [
      made.body.data.id,
    ]);
    await visit(page, base, `/buildings/${running.seed.blockId}`);
    expect(await textOf(page.getByTestId('silent-gateway'))).toBe(
      'Gateway Quiet logger has sent nothing for more than a day: no new readings of Rooftop solar (DEMO-SOLAR-001). Gateways',
    );
  });
});
