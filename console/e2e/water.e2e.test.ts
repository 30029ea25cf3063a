import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { addDays, addMonths, instantOf, isoDate, type LocalDate, today } from '../src/lib/time.ts';
import { describeInChromium } from './in-chromium.ts';
import { settled, signIn, textOf, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

const TZ = 'Africa/Johannesburg';
/** The water meter's page as the test leaves it, for a reviewer to look at. */
const WATER_SCREENSHOT = join(tmpdir(), 'console-water-meter.png');
/** The building page with its water, the dashboard form and the catalogue's water tariffs. */
const BUILDING_SCREENSHOT = join(tmpdir(), 'console-building-water.png');
const CONFIG_SCREENSHOT = join(tmpdir(), 'console-dashboard-water.png');
const CATALOGUE_SCREENSHOT = join(tmpdir(), 'console-catalogue-water.png');
/** The tenant recovery of the site's water, and a tenant's water statement. */
const RECOVERY_SCREENSHOT = join(tmpdir(), 'console-recovery-water.png');
const STATEMENT_SCREENSHOT = join(tmpdir(), 'console-statement-water.png');

const instantIso = (day: LocalDate) => new Date(instantOf(day, TZ)).toISOString();

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

  it("shows the building's water beside its electricity: kL per month and the month's water bill", async () => {
    const meter = await call(t.app, 'GET', `/api/v1/meters/${seed.waterMeterId}?account_id=${seed.accountId}`, {
      token,
    });
    const thisMonth = { ...today(TZ), day: 1 };
    const [from, to] = [addMonths(thisMonth, -5), addMonths(thisMonth, -1)];
    const lastDay = isoDate({ ...to, day: new Date(Date.UTC(to.year, to.month, 0)).getUTCDate() });
    await visit(page, base, `/buildings/${seed.blockId}?range=custom&from=${isoDate(from)}&to=${lastDay}`);
    const water = page.getByRole('region', { name: 'Water' });
    await water.getByText('kL per month').waitFor();
    const profile = await call(
      t.app,
      'GET',
      `/api/v1/timeseries/water/volume-profile?account_id=${seed.accountId}&meter_sn=${meter.body.data.meter_sn}&start=${instantIso(from)}&end=${instantIso(addMonths(to, 1))}&group_by=month&tz=${TZ}`,
      { token },
    );
    expect(profile.status).toBe(200);
    const total = profile.body.data.reduce((sum: number, b: { volume_kl: number }) => sum + b.volume_kl, 0);
    expect(total).toBeGreaterThan(0);
    const shown = water.getByTestId('water-total');
    expect(Number(await shown.getAttribute('data-kl'))).toBeCloseTo(total, 6);
    expect(await textOf(shown)).toMatch(/ kL$/);
    expect(await water.locator('canvas').count()).toBeGreaterThan(0);
    // The month's bills: the water supply's beside the grid's.
    const cost = page.getByRole('region', { name: 'Monthly cost' });
    await cost.getByText('Water supply').first().waitFor();
    await settled(page);
    await page.screenshot({ path: BUILDING_SCREENSHOT, fullPage: true });
    console.info(`building page with water: ${BUILDING_SCREENSHOT}`);
  });

  it('offers only water meters and water tariffs for the water supply of the dashboard', async () => {
    const [meters, tariffs] = await Promise.all([
      call(t.app, 'GET', `/api/v1/meters?account_id=${seed.accountId}&meter_type=WATER&limit=100`, { token }),
      call(t.app, 'GET', `/api/v1/tariffs?account_id=${seed.accountId}&meter_type=WATER&limit=100`, { token }),
    ]);
    await visit(page, base, `/buildings/${seed.blockId}/dashboard`);
    const meter = page.locator('select[name="water_supply_meter_id"]');
    const tariff = page.locator('select[name="water_supply_tariff_id"]');
    expect(await meter.inputValue()).toBe(String(seed.waterMeterId));
    const optionValues = (select: typeof meter) =>
      select.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).sort());
    const ids = (rows: { id: number }[]) => ['', ...rows.map((r) => String(r.id))].sort();
    expect(await optionValues(meter)).toEqual(ids(meters.body.data));
    expect(await optionValues(tariff)).toEqual(ids(tariffs.body.data));
    // A water tariff prices no electricity source.
    const gridTariffs = await optionValues(page.locator('select[name="grid_tariff_id"]'));
    expect(gridTariffs.filter((id) => tariffs.body.data.some((r: { id: number }) => String(r.id) === id))).toEqual([]);
    await page.screenshot({ path: CONFIG_SCREENSHOT, fullPage: true });
    console.info(`dashboard form with water: ${CONFIG_SCREENSHOT}`);
  });

  it("finds the catalogue's water tariffs by meter type", async () => {
    const expected = await call(t.app, 'GET', '/api/v1/tariffs/catalogue?meter_type=WATER&limit=50', { token });
    expect(expected.status).toBe(200);
    expect(expected.body.count).toBeGreaterThan(0);
    await visit(page, base, '/catalogue');
    await page.getByLabel('Meter type').selectOption('WATER');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/meter_type=WATER/);
    await settled(page);
    const count = expected.body.count;
    expect(await textOf(page.getByRole('status').filter({ hasText: 'tariff' }))).toBe(
      `${count} ${count === 1 ? 'tariff' : 'tariffs'}`,
    );
    for (const tariff of expected.body.data.slice(0, 3)) await page.getByText(tariff.name).first().waitFor();
    await page.screenshot({ path: CATALOGUE_SCREENSHOT, fullPage: true });
    console.info(`catalogue's water tariffs: ${CATALOGUE_SCREENSHOT}`);
  });

  it("recovers the site's water from its tenants' water meters, in kL, and shows a tenant's water statement", async () => {
    const account_id = seed.accountId;
    const site = await call(t.app, 'GET', `/api/v1/building_blocks/${seed.blockId}/config?account_id=${account_id}`, {
      token,
    });
    const tariffId = site.body.data.water_supply_tariff_id;
    expect(tariffId).toEqual(expect.any(Number));
    // Each tenant's own water meter read at the start and the end of last month: 10 and 20 kL.
    const monthEnd = { ...today(TZ), day: 1 };
    const monthStart = addMonths(monthEnd, -1);
    for (const [i, tenant] of seed.tenants.entries()) {
      const meter = await call(t.app, 'POST', '/api/v1/meters', {
        token,
        body: {
          account_id,
          building_block_id: tenant.blockId,
          meter_sn: `E2E-TENANT-WATER-${i + 1}`,
          meter_type: 'WATER',
          interval_minutes: 60,
        },
      });
      expect(meter.status).toBe(201);
      const reads = [
        { read_at: instantIso(monthStart), register_kl: 50 },
        { read_at: instantIso(monthEnd), register_kl: 50 + 10 * (i + 1) },
      ];
      const stored = await call(t.app, 'POST', `/api/v1/meters/${meter.body.data.id}/register-reads`, {
        token,
        body: { account_id, reads },
      });
      expect(stored.status).toBe(200);
      const config = await call(t.app, 'PUT', `/api/v1/building_blocks/${tenant.blockId}/config`, {
        token,
        body: { account_id, water_supply_meter_id: meter.body.data.id, water_supply_tariff_id: tariffId },
      });
      expect(config.status).toBe(200);
    }
    await visit(page, base, '/recovery');
    const form = page.getByRole('form', { name: 'Which building and period' });
    await form.getByLabel('Building').selectOption(String(seed.blockId));
    await form.getByLabel('Supply').selectOption('water');
    await form.getByLabel('First day').fill(isoDate(monthStart));
    await form.getByLabel('Last day').fill(isoDate(addDays(monthEnd, -1)));
    await form.getByRole('button', { name: 'Show recovery' }).click();
    const table = page.getByTestId('tenant-table');
    await table.waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].slice(0, 3).map((cell) => cell.textContent?.trim())),
      );
    // en-ZA writes a decimal comma.
    expect(rows).toEqual([
      ['North Unit 1', 'E2E-TENANT-WATER-1', '10,00 kL'],
      ['North Unit 2', 'E2E-TENANT-WATER-2', '20,00 kL'],
    ]);
    expect(await textOf(page.getByTestId('recovered'))).toContain('30,00 kL');
    await settled(page);
    await page.screenshot({ path: RECOVERY_SCREENSHOT, fullPage: true });
    console.info(`tenant recovery of the water: ${RECOVERY_SCREENSHOT}`);
    await page.getByRole('button', { name: 'Statement for North Unit 1' }).click();
    const statement = page.getByTestId('tenant-statement');
    await statement.waitFor();
    const text = await textOf(statement);
    expect(text).toContain('Water statement');
    expect(text).toContain('Water used10,00 kL');
    expect(text).toContain('/kL before VAT');
    await page.screenshot({ path: STATEMENT_SCREENSHOT, fullPage: true });
    console.info(`a tenant's water statement: ${STATEMENT_SCREENSHOT}`);
  });
});
