import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD, type DemoSeed } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { addDays, isoDate, today } from '../src/lib/time.ts';
import { describeInChromium } from './in-chromium.ts';
import { signIn, textOf, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/**
 * What a manager types in and what a landlord sends (extensions §13.3-§13.5), in a real Chromium
 * against the seeded demo: a portal's readings file through the column map, an invoice started
 * from our bill, and a tenant's statement printed.
 */

const TZ = 'Africa/Johannesburg';
const SCREENSHOTS = {
  upload: join(tmpdir(), 'console-upload-column-map.png'),
  invoice: join(tmpdir(), 'console-invoice-from-our-bill.png'),
  pastedLines: join(tmpdir(), 'console-invoice-pasted-lines.png'),
  statement: join(tmpdir(), 'console-tenant-statement-print.png'),
  statementPdf: join(tmpdir(), 'console-tenant-statement.pdf'),
  statementTiers: join(tmpdir(), 'console-tenant-statement-tiers.png'),
};

describeInChromium('spreadsheets, invoices from our bill and tenant statements in Chromium', () => {
  let seeded: SeededConsole;
  let t: TestApp;
  let seed: DemoSeed;
  let base: string;
  let page: Page;
  let token: string;

  const api = (method: 'GET' | 'POST' | 'PUT', path: string, body?: Record<string, unknown>) =>
    method === 'GET'
      ? call(t.app, method, `${path}?${new URLSearchParams(body as Record<string, string>)}`, { token })
      : call(t.app, method, path, { token, body });

  beforeAll(async () => {
    seeded = await startSeededConsole();
    ({ t, seed, base, page, token } = seeded);
    await signIn(page, base, DEMO_EMAIL, DEMO_PASSWORD);
  }, 180_000);

  afterAll(async () => seeded?.close());

  it('uploads a semicolon file with YYYY/MM/DD dates and a separate time column through the column map', async () => {
    const day = isoDate(addDays(today(TZ), -200)).replaceAll('-', '/');
    const times = ['10:00', '10:30', '11:00', '11:30', '12:00', '12:30'];
    const csv = ['Meter;Date;Time;kWh;kVArh', ...times.map((time, i) => `DEMO-LOAD-001;${day};${time};1${i},5;0,25`)];
    await visit(page, base, '/upload');
    await page.getByLabel('Readings file (CSV)').setInputFiles({
      name: 'portal.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${csv.join('\r\n')}\r\n`),
    });
    const map = page.getByTestId('column-map');
    await map.waitFor();
    // The map proposed from the header's names.
    expect(await map.getByLabel('Meter serial').inputValue()).toBe('Meter');
    expect(await map.getByLabel('Date (or date and time)').inputValue()).toBe('Date');
    expect(await map.getByLabel('Time of day (a separate column)').inputValue()).toBe('Time');
    expect(await map.getByLabel('Imported kWh').inputValue()).toBe('kWh');
    expect(await map.getByLabel('Reactive energy (kvarh)').inputValue()).toBe('kVArh');
    // Read as ISO dates, the first line does not fit: the preview says why.
    expect(await textOf(page.getByTestId('preview-problem'))).toMatch(/^line 2: ts \(column "Date"\): /);
    await page.getByLabel('Time zone of local times').fill(TZ);
    await map.getByLabel('Dates written as').selectOption('YYYY/MM/DD');
    await map.getByLabel('Decimals after').selectOption(',');
    const preview = page.getByTestId('upload-preview');
    await preview.waitFor();
    const rows = await preview
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toHaveLength(5);
    expect(rows[0]!.slice(0, 2)).toEqual(['2', 'DEMO-LOAD-001']);
    expect(rows.map((row) => row[3])).toEqual(['10,500', '11,500', '12,500', '13,500', '14,500']);
    await page.screenshot({ path: SCREENSHOTS.upload, fullPage: true });
    await page.getByRole('button', { name: 'Upload' }).click();
    expect(await textOf(page.getByTestId('upload-outcome'))).toBe(
      'Imported 6 readings (6 inserted, 0 updated) from portal.csv',
    );
    const stored = await api('GET', '/api/v1/timeseries/electricity/energy-sum', {
      account_id: seed.accountId,
      meter_sn: 'DEMO-LOAD-001',
      start: new Date(`${day.replaceAll('/', '-')}T10:00:00+02:00`).toISOString(),
      end: new Date(`${day.replaceAll('/', '-')}T13:00:00+02:00`).toISOString(),
    });
    expect(stored.body.data).toMatchObject({ import_kwh: 78, kvarh: 1.5, readings: 6 });
  });

  it('enters an invoice from our bill with one line changed and sees it flagged in words', async () => {
    const yesterday = isoDate(addDays(today(TZ), -1));
    await visit(page, base, '/invoices');
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Supplier').fill('City Power');
    await form.getByLabel('Invoice number').fill('E2E-OUR-BILL');
    await form.getByLabel('Building').selectOption({ label: 'Demo Campus' });
    await form.getByLabel('First day').fill(yesterday);
    await form.getByLabel('Last day').fill(yesterday);
    await form.getByRole('button', { name: 'Start from our bill' }).click();
    const amounts = form.getByLabel('Amount');
    await amounts.first().waitFor();
    await page.waitForFunction(
      () => (document.querySelector('input[id$="-amount"]') as HTMLInputElement)?.value !== '',
    );
    const first = Number(await amounts.first().inputValue());
    const description = await form.getByLabel('Description').first().inputValue();
    expect(description).not.toBe('');
    // The utility charged the first line 500.00 more.
    await amounts.first().fill((first + 500).toFixed(2));
    await form.getByRole('button', { name: 'Save and check' }).click();
    await page.waitForURL(/\/invoices\/\d+$/);
    await page.getByTestId('check-table').waitFor();
    const variance = page.locator('[data-testid="check-flags"] > li[data-code="LINE_VARIANCE"]');
    expect(await variance.getAttribute('data-severity')).toBe('error');
    expect(await textOf(variance.locator('.severity-error'))).toBe('Disagrees with our bill:');
    // The charge's name as our bill describes it (its season after a comma), parentheses escaped.
    const charge = description.split(',')[0]!.replace(/[()]/g, '\\$&');
    expect(await textOf(variance.locator('ul > li'))).toMatch(
      new RegExp(`^${charge}: the invoice charges R [\\d ]+,\\d\\d, our bill R [\\d ]+,\\d\\d \\(R 500,00 more\\)$`),
    );
    await page.screenshot({ path: SCREENSHOTS.invoice, fullPage: true });
  });

  it('reads invoice lines pasted as CSV into the form, names a bad line, and saves them', async () => {
    const yesterday = isoDate(addDays(today(TZ), -1));
    await visit(page, base, '/invoices');
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.getByLabel('Supplier').fill('City Power');
    await form.getByLabel('Invoice number').fill('E2E-PASTED');
    await form.getByLabel('Building').selectOption({ label: 'Demo Campus' });
    await form.getByLabel('First day').fill(yesterday);
    await form.getByLabel('Last day').fill(yesterday);
    await form.getByText('Paste or upload the lines as CSV').click();
    const values = (label: string) =>
      form
        .getByLabel(label, { exact: true })
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement | HTMLSelectElement).value));
    await form.getByLabel('Lines file (CSV)').setInputFiles({
      name: 'lines.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('Description,Amount\r\nLate payment fee,50\r\n'),
    });
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[id$="-description"]')?.value);
    expect(await values('Description')).toEqual(['Late payment fee']);
    expect(await values('Amount')).toEqual(['50']);
    const paste = form.getByLabel('Lines as CSV');
    const csv = [
      'description;charge;quantity;unit;amount',
      'Service charge;SERVICE;1;day;3,58',
      'Energy, all day;;120,5;kWh',
    ];
    await paste.fill(csv.join('\n'));
    await form.getByRole('button', { name: 'Read the pasted lines' }).click();
    expect(await textOf(form.getByRole('alert'))).toBe(
      'Line 3 of the CSV: write the amount as a number, such as 9435.75.',
    );
    await paste.fill([...csv.slice(0, 2), 'Energy, all day;;120,5;kWh;301,25', ''].join('\n'));
    await form.getByRole('button', { name: 'Read the pasted lines' }).click();
    expect(await form.getByRole('alert').count()).toBe(0);
    expect(await values('Description')).toEqual(['Service charge', 'Energy, all day']);
    expect(await values('Charge')).toEqual(['SERVICE', '']);
    expect(await values('Quantity')).toEqual(['1', '120,5']);
    expect(await values('Unit')).toEqual(['day', 'kWh']);
    expect(await values('Amount')).toEqual(['3,58', '301,25']);
    await form.getByLabel('Tax').fill('45,73');
    expect((await textOf(form.getByTestId('invoice-sums'))).replace(/\s/g, ' ')).toBe(
      'Subtotal R 304,83 · Total R 350,56',
    );
    await page.screenshot({ path: SCREENSHOTS.pastedLines, fullPage: true });
    await form.getByRole('button', { name: 'Save and check' }).click();
    await page.waitForURL(/\/invoices\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = await api('GET', `/api/v1/invoices/${id}`, { account_id: seed.accountId });
    expect(saved.body.data).toMatchObject({
      invoice_number: 'E2E-PASTED',
      lines: [
        { description: 'Service charge', item_type_code: 'SERVICE', quantity: 1, unit: 'day', amount: 3.58 },
        { description: 'Energy, all day', item_type_code: null, quantity: 120.5, unit: 'kWh', amount: 301.25 },
      ],
      subtotal: 304.83,
      tax: 45.73,
      total: 350.56,
    });
  });

  it("prints a tenant's statement with its lines, VAT and total, each line named with its period or tier", async () => {
    const blocks = await api('GET', '/api/v1/building_blocks', { account_id: seed.accountId, limit: '100' });
    const unit = blocks.body.data.find((b: { name: string }) => b.name === 'North Unit 1');
    const meter = await api('POST', '/api/v1/meters', {
      account_id: seed.accountId,
      building_block_id: unit.id,
      meter_sn: 'TENANT-N1',
      meter_type: 'ELECTRICITY',
    });
    const yesterday = isoDate(addDays(today(TZ), -1));
    const readings = Array.from({ length: 48 }, (_, i) => ({
      ts: new Date(Date.parse(`${yesterday}T00:00:00+02:00`) + i * 1_800_000).toISOString(),
      import_kwh: 2,
    }));
    expect(
      (
        await api('POST', '/api/v1/timeseries/electricity/readings', {
          account_id: seed.accountId,
          meter_sn: 'TENANT-N1',
          readings,
        })
      ).status,
    ).toBe(200);
    await api('PUT', `/api/v1/building_blocks/${unit.id}/config`, {
      account_id: seed.accountId,
      grid_meter_id: meter.body.data.id,
      grid_tariff_id: seed.tariffIds.gridTariffId,
    });
    await visit(page, base, '/recovery');
    await page.getByRole('button', { name: 'Show recovery' }).click();
    await page.getByTestId('tenant-table').waitFor();
    await page.getByRole('button', { name: 'Statement for North Unit 1' }).click();
    const statement = page.getByTestId('tenant-statement');
    await statement.waitFor();
    expect(await textOf(statement.getByTestId('statement-readings'))).toMatch(/^48 from /);
    const lines = statement.getByTestId('statement-lines');
    expect(await lines.locator('tbody tr').count()).toBeGreaterThan(0);
    expect((await textOf(statement.getByTestId('statement-total'))).replace(/\s/g, ' ')).toMatch(/^R [\d ]+,\d\d$/);
    await page.emulateMedia({ media: 'print' });
    try {
      expect(await page.getByTestId('tenant-table').isVisible()).toBe(false);
      expect(await lines.isVisible()).toBe(true);
      await page.screenshot({ path: SCREENSHOTS.statement, fullPage: true });
      await page.pdf({ path: SCREENSHOTS.statementPdf, format: 'A4' });
    } finally {
      await page.emulateMedia({ media: 'screen' });
    }
    // Each line names its time-of-use period.
    const charges = async () => (await lines.locator('tbody th').allTextContents()).map((text) => text.trim());
    expect((await charges()).some((charge) => / · (?:Peak|Standard|Off peak)$/.test(charge))).toBe(true);

    // On a block tariff, each line names its tier: 96 kWh in the day, the first tier up to 50.
    const tariff = await api('POST', '/api/v1/tariffs', {
      account_id: seed.accountId,
      name: 'Tenant block tariff',
      tariff_type: 'BLOCK',
      effective_from: isoDate(addDays(today(TZ), -30)),
      effective_to: isoDate(addDays(today(TZ), 365)),
    });
    expect([tariff.status, tariff.body.error]).toEqual([201, undefined]);
    const item = await api('POST', `/api/v1/tariffs/${tariff.body.data.id}/items`, {
      item_type_code: 'IMPORT_ENERGY',
      price: 2,
      blocks: [
        { block_index: 0, upper_limit: 50, unit_price_cents: 200 },
        { block_index: 1, upper_limit: null, unit_price_cents: 300 },
      ],
    });
    expect([item.status, item.body.error]).toEqual([201, undefined]);
    const config = await api('PUT', `/api/v1/building_blocks/${unit.id}/config`, {
      account_id: seed.accountId,
      grid_meter_id: meter.body.data.id,
      grid_tariff_id: tariff.body.data.id,
    });
    expect(config.status).toBe(200);
    // An assignment counts from its moment: this one as if made before yesterday's readings.
    await t.db.query('UPDATE tariff_history SET effective_from = $1 WHERE building_block_id = $2 AND tariff_id = $3', [
      new Date(Date.parse(`${yesterday}T00:00:00+02:00`) - 86_400_000),
      unit.id,
      tariff.body.data.id,
    ]);
    await visit(page, base, '/recovery');
    await page.getByRole('button', { name: 'Show recovery' }).click();
    await page.getByRole('button', { name: 'Statement for North Unit 1' }).click();
    await statement.getByText('· tier 2').waitFor();
    expect((await charges()).filter((charge) => / · tier \d$/.test(charge))).toEqual([
      'Active energy · Summer · tier 1',
      'Active energy · Summer · tier 2',
    ]);
    await statement.screenshot({ path: SCREENSHOTS.statementTiers });
  });
});
