import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../../test/helpers/http.ts';
import { FLAG_EXPLANATIONS } from '../src/decisions/invoice-flags.ts';
import { addDays, addMonths, daysBetween, isoDate, isoMonth, type LocalDate, today } from '../src/lib/time.ts';
import { exportedCsv } from './downloads.ts';
import { describeInChromium } from './in-chromium.ts';
import { settled, textOf } from './pages.ts';
import { type RunningConsole, startConsole } from './running-console.ts';
import { type BlockFields, newBuildingBlock, newMeter, newOrganization, signUp } from './setup-steps.ts';

/**
 * A new energy manager's first month, through the console only: from signing up to an exported
 * bill. The service is read through its API only to check what the console shows.
 */

const TZ = 'Africa/Johannesburg';
const EMAIL = `manager-${randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = 'a long enough password';
const ORGANIZATION = 'Harbour Properties';
const BLOCK: BlockFields = {
  name: 'Harbour House',
  type: 'COMMERCIAL',
  address: '3 Dock Road',
  city: 'Cape Town',
  state: 'Western Cape',
  postalCode: '8001',
  area: '5200',
};
const METER = { serial: `HARBOUR-GRID-${randomUUID().slice(0, 6)}`, name: 'Main incomer', nmdKva: '250' };
/** Last month in the tariffs' zone: a whole month of readings, billed. */
const MONTH_START: LocalDate = addMonths({ ...today(TZ), day: 1 }, -1);
const MONTH = isoMonth(MONTH_START);
const MONTH_DAYS = daysBetween(MONTH_START, addMonths(MONTH_START, 1));
/** The Megaflex of the tariff year (April to March) that holds the month, as the catalogue names it. */
const TARIFF_YEAR = MONTH_START.month >= 4 ? MONTH_START.year : MONTH_START.year - 1;
const MEGAFLEX = `Eskom Megaflex ${TARIFF_YEAR}/${String((TARIFF_YEAR + 1) % 100).padStart(2, '0')} (illustrative)`;
/** What the utility charged above the computed bill on its network demand line. */
const OVERCHARGE = 1000;

/**
 * Half-hourly readings of the month (South Africa keeps +02:00 all year): 120 kW by day, 40 kW by
 * night, at a power factor of 0.95 (0.3287 kvarh a kWh).
 */
function monthOfReadings(): string {
  const lines = ['meter_sn,ts,import_kwh,export_kwh,kvarh'];
  for (let d = 0; d < MONTH_DAYS; d++) {
    const day = isoDate(addDays(MONTH_START, d));
    for (let slot = 0; slot < 48; slot++) {
      const hour = Math.floor(slot / 2);
      const time = `${String(hour).padStart(2, '0')}:${slot % 2 === 0 ? '00' : '30'}`;
      const kwh = hour >= 7 && hour < 19 ? 60 : 20;
      lines.push(`${METER.serial},${day}T${time}:00+02:00,${kwh.toFixed(3)},0,${(kwh * 0.3287).toFixed(3)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

describeInChromium('a new energy manager, through the console only', () => {
  let c: RunningConsole;
  let page: Page;
  let folder: string;
  let accountId: string;
  let blockId: number;

  beforeAll(async () => {
    c = await startConsole();
    page = c.page;
    folder = mkdtempSync(join(tmpdir(), 'console-journey-'));
  });

  afterAll(async () => {
    await c?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** Money as the console writes it (South African English), with plain spaces. */
  const rands = (amount: number) =>
    spaced(
      new Intl.NumberFormat('en-ZA', { style: 'currency', currency: 'ZAR', currencyDisplay: 'narrowSymbol' }).format(
        amount,
      ),
    );
  const spaced = (text: string) => text.replace(/\s/g, ' ');

  /** The service's own answer, to check the console against: read as the manager. */
  const api = async (path: string, query: Record<string, string | number>) => {
    const login = await call(c.t.app, 'POST', '/api/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } });
    const res = await call(
      c.t.app,
      'GET',
      `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}`,
      {
        token: login.body.data.access_token,
      },
    );
    expect(res.status).toBe(200);
    return res.body.data;
  };

  const navigateTo = async (label: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
    await settled(page);
  };

  /** The building's dashboard, from the navigation and the building tree. */
  const openBuilding = async () => {
    await navigateTo('Buildings');
    await page.getByRole('link', { name: BLOCK.name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: BLOCK.name, exact: true }).waitFor();
    await settled(page);
  };

  const monthPeriod = () => ({
    start: `${isoDate(MONTH_START)}T00:00:00+02:00`,
    end: `${isoDate(addMonths(MONTH_START, 1))}T00:00:00+02:00`,
  });

  it('signs up, and creates an organization from the empty personal account', async () => {
    await signUp(page, c.base, EMAIL, PASSWORD);
    await page.getByText('This organization has no building blocks yet.').waitFor();
    await newOrganization(page, ORGANIZATION);
    const organization = page.getByLabel('Organization', { exact: true });
    expect(await organization.locator('option:checked').textContent()).toBe(`${ORGANIZATION} (owner)`);
    accountId = await organization.inputValue();
  });

  it('creates a building, and a grid meter with its NMD in it', async () => {
    await newBuildingBlock(page, BLOCK);
    blockId = Number(/\/buildings\/(\d+)$/.exec(page.url())?.[1]);
    await newMeter(page, METER);
    const facts = page.locator('dl.facts');
    expect(await facts.locator('dt:has-text("Notified maximum demand") + dd').textContent()).toBe(
      `${METER.nmdKva} kVA`,
    );
  });

  let tariffId: number;

  it(`clones ${MEGAFLEX} from the catalogue`, async () => {
    await navigateTo('Catalogue');
    await page.getByLabel('Search').fill('Megaflex');
    await page.getByLabel('Search').press('Enter');
    await page.waitForURL(/query=Megaflex/);
    await settled(page);
    await page.getByRole('button', { name: `Clone ${MEGAFLEX} into ${ORGANIZATION}` }).click();
    await page.waitForURL(/\/tariffs\/\d+\?cloned=/);
    tariffId = Number(new URL(page.url()).pathname.split('/').at(-1));
    expect(await textOf(page.getByRole('heading', { level: 1 }))).toBe(MEGAFLEX);
    await page.getByText(`Cloned from the catalogue into ${ORGANIZATION}.`).waitFor();
  });

  it('sets the dashboard: the grid meter, priced with Megaflex', async () => {
    await openBuilding();
    await page.getByRole('link', { name: 'Edit dashboard' }).first().click();
    await page.getByLabel('Grid meter').selectOption({ label: `${METER.name} (${METER.serial})` });
    await page.getByLabel('Grid tariff').selectOption({ label: MEGAFLEX });
    await page.getByRole('button', { name: 'Save dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: BLOCK.name, exact: true }).waitFor();
  });

  it('uploads a month of half-hourly readings from a CSV file', async () => {
    const file = join(folder, `${METER.serial}-${MONTH}.csv`);
    writeFileSync(file, monthOfReadings());
    const count = MONTH_DAYS * 48;
    await navigateTo('Upload readings');
    await page.getByLabel('Readings file (CSV)').setInputFiles(file);
    await page.getByRole('button', { name: 'Upload' }).click();
    expect(await textOf(page.getByTestId('upload-outcome'))).toBe(
      `Imported ${count} readings (${count} inserted, 0 updated) from ${METER.serial}-${MONTH}.csv`,
    );
  });

  let bill: { total: number; tax: number; lines: { item_type_code: string; amount: number }[] };
  /** The month's total as the dashboard shows it. */
  let shownTotal: string;

  it('sees the month’s bill, as the service computes it', async () => {
    await openBuilding();
    await settled(page);
    const cost = await api(`/api/v1/building_blocks/${blockId}/energy-cost`, {
      account_id: accountId,
      ...monthPeriod(),
    });
    const grid = cost.sources.find((s: { source: string }) => s.source === 'grid');
    bill = grid.bills[0];
    expect(bill.total).toBeGreaterThan(0);
    await page
      .getByRole('list', { name: 'Choose a month' })
      .getByRole('button')
      .filter({
        hasText: new Intl.DateTimeFormat('en-ZA', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
          Date.UTC(MONTH_START.year, MONTH_START.month - 1, 15),
        ),
      })
      .click();
    const month = page.locator(`section[data-month="${MONTH}"]`);
    await month.waitFor();
    const total = month.getByTestId('month-total');
    expect(Number(await total.getAttribute('data-amount'))).toBe(bill.total);
    shownTotal = await textOf(total);
    expect(await month.textContent()).toContain(MEGAFLEX);
  });

  it('enters the utility’s invoice and sees its check flag the overcharged line', async () => {
    await navigateTo('Invoices');
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Supplier').fill('Eskom');
    await form.getByLabel('Invoice number').fill(`INV-${MONTH}`);
    await form.getByLabel('Building').selectOption({ label: BLOCK.name });
    await form.getByLabel('First day').fill(isoDate(MONTH_START));
    await form.getByLabel('Last day').fill(isoDate(addDays(addMonths(MONTH_START, 1), -1)));
    // The utility's lines: each charge of the computed bill, the network demand charge R 1 000 more.
    const byCode = new Map<string, number>();
    for (const line of bill.lines)
      byCode.set(line.item_type_code, (byCode.get(line.item_type_code) ?? 0) + line.amount);
    const lines = [...byCode].map(([code, amount]) => ({
      code,
      amount: Math.round((amount + (code === 'NETWORK_DEMAND' ? OVERCHARGE : 0)) * 100) / 100,
    }));
    for (const [i, line] of lines.entries()) {
      if (i > 0) await form.getByRole('button', { name: 'Add line' }).click();
      const fields = form.getByRole('group', { name: `Line ${i + 1}` });
      await fields.getByLabel('Description').fill(line.code.toLowerCase().replaceAll('_', ' '));
      await fields.getByLabel('Charge').selectOption(line.code);
      await fields.getByLabel('Amount').fill(line.amount.toFixed(2));
    }
    await form.getByLabel('Tax').fill((bill.tax + OVERCHARGE * 0.15).toFixed(2));
    await form.getByRole('button', { name: 'Save and check' }).click();
    const saved = page.getByRole('heading', { level: 1, name: `Eskom invoice INV-${MONTH}` });
    expect(await textOf(saved.or(form.getByRole('alert')))).toBe(`Eskom invoice INV-${MONTH}`);
    await settled(page);
    expect(await textOf(page.getByTestId('computed-total'))).toBe(shownTotal);
    expect(spaced(await textOf(page.getByTestId('check-difference')))).toBe(rands(OVERCHARGE * 1.15));
    expect(await textOf(page.getByTestId('check-status'))).toBe(
      'One thing to look at before paying (amounts compared within 1 %):',
    );
    const flag = page.locator('[data-testid="check-flags"] > li');
    expect(await flag.evaluateAll((items) => items.map((li) => li.getAttribute('data-code')))).toEqual([
      'LINE_VARIANCE',
    ]);
    expect(await textOf(flag.locator('strong'))).toBe(FLAG_EXPLANATIONS.LINE_VARIANCE);
    expect(await textOf(flag.locator('ul > li'))).toMatch(
      /^Network demand charge: the invoice charges R [\d ]+,\d\d, our bill R [\d ]+,\d\d \(R [\d ]+,\d\d more\)$/,
    );
  });

  it('compares tariffs for the month', async () => {
    await navigateTo('Compare tariffs');
    const form = page.getByRole('form', { name: 'What to compare' });
    await form.getByLabel('Building').selectOption({ label: BLOCK.name });
    await form.getByLabel('First day').fill(isoDate(MONTH_START));
    await form.getByLabel('Last day').fill(isoDate(addDays(addMonths(MONTH_START, 1), -1)));
    await form.getByRole('button', { name: 'Compare' }).click();
    const table = page.getByTestId('comparison-table');
    await table.waitFor();
    expect(await textOf(page.getByTestId('current-total'))).toContain(shownTotal);
    // Megaflex, the current tariff, is for NMDs from 1,000 kVA: not a candidate for this 250 kVA supply;
    // the tariffs it may take are ranked by total, and the headline names none but them.
    expect(await table.locator(`tr[data-tariff-id="${tariffId}"]`).count()).toBe(0);
    const ranked = table.locator('tbody tr');
    const totals = await table
      .locator('td[data-amount]:not([data-amount=""])')
      .evaluateAll((cells) => cells.map((cell) => Number(cell.getAttribute('data-amount'))));
    expect(totals.length).toBeGreaterThan(0);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const names = await ranked.locator('th').allTextContents();
    expect(names.some((name) => name.includes('Miniflex'))).toBe(true);
    const headline = await textOf(page.getByTestId('recommendation'));
    expect(headline).toMatch(/^(Recommended: .+ saved R\s.+|No recommendation: .+)$/);
    expect(headline).not.toContain('Megaflex');
  });

  it('exports the bills as CSV, with the month’s total on its line', async () => {
    await openBuilding();
    await page.locator('section[data-month]').waitFor();
    const csv = await exportedCsv(page, () =>
      page.locator('section[aria-labelledby="cost-heading"]').getByRole('button', { name: 'Export CSV' }).click(),
    );
    expect(csv).toContain(`${MONTH},Grid,${METER.serial},${MEGAFLEX},Total,,,,,,,,${bill.total.toFixed(2)},ZAR`);
  });

  it('logged no error in the browser console but the 404s of a dashboard not set up yet', () => {
    expect(c.consoleErrors.filter((error) => !/status of 404 .*\/building_blocks\/\d+\/config\?/.test(error))).toEqual(
      [],
    );
  });
});
