import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { addMonths, isoDate, today } from '../src/lib/time.ts';
import { describeInChromium } from './in-chromium.ts';
import { settled, signIn, textOf, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

const TZ = 'Africa/Johannesburg';
/** The water meter's page as the test leaves it, for a reviewer to look at. */
const WATER_SCREENSHOT = join(tmpdir(), 'console-water-meter.png');

describeInChromium('a water meter read by hand in Chromium', () => {
  let seeded: SeededConsole;
  let t: TestApp;
  let seed: DemoSeed;
  let base: string;
  let page: Page;
  let token: string;

  beforeAll(async () => {
    seeded = await startSeededConsole();
    ({ t, seed, base, page, token } = seeded);
  }, 180_000);
  afterAll(async () => seeded?.close());

  /** Types a read into the form and waits for the table to show it as its `count`th. */
  async function enterRead(day: string, dial: string, count: number) {
    await page.getByLabel('Day read').fill(day);
    await page.getByLabel('Dial reading (kL)').fill(dial);
    await page.getByRole('button', { name: 'Save the read' }).click();
    await page
      .getByTestId('register-reads')
      .locator('tbody tr')
      .nth(count - 1)
      .waitFor();
    await settled(page);
  }

  it('enters two dial reads and shows the water bill between them', async () => {
    const demoWater = await call(t.app, 'GET', `/api/v1/meters/${seed.waterMeterId}?account_id=${seed.accountId}`, {
      token,
    });
    const meter = await call(t.app, 'POST', '/api/v1/meters', {
      token,
      body: {
        account_id: seed.accountId,
        building_block_id: seed.blockId,
        meter_sn: 'E2E-WATER-001',
        meter_type: 'WATER',
        interval_minutes: 60,
        tariff_id: demoWater.body.data.tariff_id,
      },
    });
    expect(meter.status).toBe(201);
    await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
    await visit(page, base, `/meters/${meter.body.data.id}`);
    await page.getByRole('heading', { name: 'Water reads' }).waitFor();
    const thisMonth = { ...today(TZ), day: 1 };
    const [first, second] = [isoDate(addMonths(thisMonth, -2)), isoDate(addMonths(thisMonth, -1))];
    await enterRead(first, '1000', 1);
    await enterRead(second, '1220', 2);
    const bill = page.getByTestId('water-bill');
    await bill.waitFor();
    const text = await textOf(bill);
    // en-ZA writes a decimal comma.
    expect(text).toContain('water consumption: 220,00 kL');
    expect(text).toContain('water consumption');
    expect(text).toContain('sewerage');
    expect(await textOf(page.getByTestId('register-reads'))).toContain('220');
    await page.screenshot({ path: WATER_SCREENSHOT, fullPage: true });
    console.info(`water meter page: ${WATER_SCREENSHOT}`);
  });
});
