import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../../test/helpers/http.ts';
import type { TestApp } from '../../test/helpers/test-app.ts';
import { isoDate, today } from '../src/lib/time.ts';
import { describeInChromium } from './in-chromium.ts';
import { settled, textOf, visit } from './pages.ts';
import { type RunningConsole, startConsole } from './running-console.ts';
import { newBuildingBlock, newMeter, newOrganization, signUp } from './setup-steps.ts';

/**
 * A manager who never used the API sets everything up in the console: an organization and its
 * members, a building block, a grid meter with its NMD, a tariff cloned and edited, the dashboard.
 */

const TZ = 'Africa/Johannesburg';
const EMAIL = `manager-${crypto.randomUUID().slice(0, 8)}@example.com`;
const COLLEAGUE = `colleague-${crypto.randomUUID().slice(0, 8)}@example.com`;
const PASSWORD = 'correct horse battery';
const SERIAL = `KH-GRID-${crypto.randomUUID().slice(0, 6)}`;

describeInChromium('setting up in the console', () => {
  let running: RunningConsole;
  let t: TestApp;
  let base: string;
  let page: Page;
  let token: string;
  let accountId: string;
  let blockId: number;
  let meterId: number;
  let tariffId: number;
  let consoleErrors: string[];

  beforeAll(async () => {
    // The refusals the tests provoke (a member not signed up, a block that is not empty) and a
    // dashboard not set up yet (404) are logged by Chromium as failed loads.
    running = await startConsole({
      expectedErrors: /^Failed to load resource: the server responded with a status of 4\d\d/,
    });
    ({ t, base, page, consoleErrors } = running);
    // "Delete …" and "Remove …" ask first; the person says yes.
    page.on('dialog', (dialog) => void dialog.accept());
  });

  afterAll(async () => running?.close());

  /** What the API answers the manager for a read. */
  const api = async (path: string) => (await call(t.app, 'GET', path, { token })).body.data;
  const idInUrl = (pattern: RegExp) => Number(pattern.exec(page.url())?.[1]);

  it('signs up, and the empty personal account offers "New organization"', async () => {
    await signUp(page, base, EMAIL, PASSWORD);
    await page.getByText('This organization has no building blocks yet.').waitFor();
    const login = await call(t.app, 'POST', '/api/v1/auth/login', { body: { email: EMAIL, password: PASSWORD } });
    token = login.body.data.access_token;

    await newOrganization(page, 'Karoo Offices');
    const organization = page.getByLabel('Organization', { exact: true });
    expect(await organization.locator('option:checked').textContent()).toBe('Karoo Offices (owner)');
    const organizations: { id: string; name: string; role: string }[] = await api('/api/v1/auth/organizations');
    const created = organizations.find((o) => o.name === 'Karoo Offices')!;
    expect(created.role).toBe('OWNER');
    accountId = created.id;
  });

  it('creates a building block, then a grid meter with its NMD and installation day in it', async () => {
    await newBuildingBlock(page, {
      name: 'Karoo House',
      type: 'COMMERCIAL',
      address: '12 Long Street',
      city: 'Cape Town',
      state: 'Western Cape',
      postalCode: '8001',
      area: '2400',
    });
    blockId = idInUrl(/\/buildings\/(\d+)$/);
    expect(await textOf(page.locator('.panel p.muted').first())).toBe(
      'Commercial · 12 Long Street, Cape Town · 2400 m²',
    );

    await newMeter(page, { serial: SERIAL, name: 'Main incomer', nmdKva: '500', installedOn: '2025-01-01' });
    meterId = idInUrl(/\/meters\/(\d+)$/);
    const facts = page.locator('dl.facts');
    expect(await facts.locator('dt:has-text("Notified maximum demand") + dd').textContent()).toBe('500 kVA');
    expect(await facts.locator('dt:has-text("Installed on") + dd').textContent()).toBe('2025-01-01');
    expect(await api(`/api/v1/meters/${meterId}?account_id=${accountId}`)).toMatchObject({
      meter_sn: SERIAL,
      name: 'Main incomer',
      meter_type: 'ELECTRICITY',
      building_block_id: blockId,
      interval_minutes: 30,
      notified_max_demand_kva: 500,
      installed_on: '2025-01-01',
      tariff_id: null,
    });
  });

  it('clones Megaflex from the catalogue and edits an item’s price', async () => {
    await visit(page, base, '/catalogue?query=Megaflex');
    await page
      .getByRole('button', { name: /^Clone Eskom Megaflex/ })
      .first()
      .click();
    await page.waitForURL(/\/tariffs\/\d+\?cloned=/);
    tariffId = idInUrl(/\/tariffs\/(\d+)\?/);
    await page.getByRole('link', { name: 'Edit tariff' }).click();
    await page.getByRole('heading', { level: 2, name: 'Items' }).waitFor();
    const item = page.locator('li[data-item]').first();
    const code = await item.getAttribute('data-item');
    await item.locator('summary').click();
    await item.getByLabel(/^Price/).fill('1.234567');
    await item.getByRole('button', { name: 'Save item' }).click();
    // Saved once the items are read again: the item's summary then shows the new price.
    await page
      .locator('li[data-item] summary')
      .getByText(/1[.,]234567\//)
      .first()
      .waitFor();
    const tariff: { tariff_items: { item_type_code: string; price: number }[] } = await api(
      `/api/v1/tariffs/${tariffId}?account_id=${accountId}`,
    );
    expect(tariff.tariff_items.filter((i) => i.item_type_code === code).map((i) => i.price)).toContain(1.234567);
    await visit(page, base, `/tariffs/${tariffId}`);
    await page
      .getByText(/1[.,]234567\//)
      .first()
      .waitFor();
  });

  it('gives the meter the tariff; the dashboard offers it, and the building then shows a cost', async () => {
    await visit(page, base, `/meters/${meterId}/edit`);
    await page.getByLabel('Tariff').selectOption(String(tariffId));
    await page.getByRole('button', { name: 'Save meter' }).click();
    await page.waitForURL(new RegExp(`/meters/${meterId}$`));

    // Readings of the first hours of this month, uploaded as a person would.
    const day = isoDate({ ...today(TZ), day: 1 });
    const csv = ['meter_sn,ts,import_kwh,export_kwh'];
    for (let h = 0; h < 6; h++) for (const m of ['00', '30']) csv.push(`${SERIAL},${day}T0${h}:${m}:00+02:00,150,0`);
    await visit(page, base, '/upload');
    await page.getByLabel('Readings file (CSV)').setInputFiles({
      name: 'karoo.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${csv.join('\n')}\n`),
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    expect(await textOf(page.getByTestId('upload-outcome'))).toBe(
      'Imported 12 readings (12 inserted, 0 updated) from karoo.csv',
    );

    await visit(page, base, `/buildings/${blockId}`);
    await page.getByRole('link', { name: 'Edit dashboard' }).first().click();
    await page.getByLabel('Grid meter').selectOption({ label: `Main incomer (${SERIAL})` });
    await page.getByText(/^The meter's own tariff is Eskom Megaflex/).waitFor();
    await page.getByRole('button', { name: 'Save dashboard' }).click();
    await page.getByRole('heading', { level: 1, name: 'Karoo House' }).waitFor();

    // The config names the meter but no tariff: the cost says so, and offers the meter's.
    const offer = page.getByTestId('meter-tariff-offer-grid').first();
    await offer.waitFor();
    expect(await offer.locator('p').textContent()).toMatch(
      new RegExp(`^The dashboard names no grid tariff, but meter ${SERIAL} has its own: Eskom Megaflex`),
    );
    await offer.getByRole('button', { name: /^Use the meter's tariff/ }).click();
    // The offer goes once the config is saved and the building's cost reloaded: not before.
    await offer.waitFor({ state: 'detached' });
    const total = page.getByTestId('month-total');
    await total.waitFor();
    await settled(page);
    const config = await api(`/api/v1/building_blocks/${blockId}/config?account_id=${accountId}`);
    expect(config).toMatchObject({ grid_meter_id: meterId, grid_tariff_id: tariffId });
    const bills = page.locator('section[data-month]');
    const [start, end] = await Promise.all([bills.getAttribute('data-start'), bills.getAttribute('data-end')]);
    const cost = await api(
      `/api/v1/building_blocks/${blockId}/energy-cost?${new URLSearchParams({ account_id: accountId, start: start!, end: end! })}`,
    );
    const amount = Number(await total.getAttribute('data-amount'));
    expect(amount).toBeGreaterThan(0);
    expect(amount).toBe(cost.totals.ZAR);
  });

  it('adds a member by e-mail, changes the role and removes the member', async () => {
    await call(t.app, 'POST', '/api/v1/auth/signup', { body: { email: COLLEAGUE, password: PASSWORD } });
    await visit(page, base, '/organization');
    await page.getByLabel('E-mail').fill(COLLEAGUE);
    await page.getByLabel('Role', { exact: true }).selectOption('ADMIN');
    await page.getByRole('button', { name: 'Add member' }).click();
    const row = page.locator(`tr[data-email="${COLLEAGUE}"]`);
    const role = row.getByLabel(`Role of ${COLLEAGUE}`, { exact: true });
    await role.waitFor();
    expect(await role.inputValue()).toBe('ADMIN');

    await role.selectOption('MEMBER');
    await row.getByRole('button', { name: `Change role of ${COLLEAGUE}` }).click();
    await expect
      .poll(async () => (await api(`/api/v1/organizations/${accountId}/members?query=${COLLEAGUE}`))[0]?.role)
      .toBe('MEMBER');

    await row.getByRole('button', { name: `Remove ${COLLEAGUE}` }).click();
    await row.waitFor({ state: 'detached' });
    const members: { email: string }[] = await api(`/api/v1/organizations/${accountId}/members`);
    expect(members.map((m) => m.email)).toEqual([EMAIL]);

    await page.getByLabel('E-mail').fill('nobody-yet@example.com');
    await page.getByRole('button', { name: 'Add member' }).click();
    expect(await textOf(page.getByRole('alert'))).toBe(
      'Nobody has signed up with this e-mail address yet. Ask them to create an account first.',
    );
  });

  it('shows the refusals of a move into its own block and of deleting a block with a meter as plain sentences', async () => {
    await visit(page, base, `/buildings/${blockId}`);
    await page.getByRole('link', { name: 'New building block under Karoo House' }).click();
    await page.getByLabel('Name', { exact: true }).fill('First floor');
    for (const [label, value] of [
      ['Address', '12 Long Street'],
      ['City', 'Cape Town'],
      ['Province or state', 'Western Cape'],
      ['Postal code', '8001'],
    ] as const) {
      await page.getByLabel(label).fill(value);
    }
    await page.getByRole('button', { name: 'Create building block' }).click();
    await page.getByRole('heading', { level: 1, name: 'First floor' }).waitFor();
    const floorId = idInUrl(/\/buildings\/(\d+)$/);
    expect((await api(`/api/v1/building_blocks/${floorId}?account_id=${accountId}`)).parent_id).toBe(blockId);

    await visit(page, base, `/buildings/${blockId}/edit`);
    await page.getByLabel('Part of').selectOption({ label: 'First floor' });
    await page.getByRole('button', { name: 'Save building block' }).click();
    expect(await textOf(page.getByRole('alert'))).toBe(
      'A building block cannot be moved under itself or under one of its own blocks.',
    );

    await page.getByRole('button', { name: 'Delete Karoo House' }).click();
    await page.getByText('This building block still has blocks or meters under it.', { exact: false }).waitFor();
    expect(await textOf(page.locator('section[aria-labelledby="delete-block-heading"] [role="alert"]'))).toBe(
      'This building block still has blocks or meters under it. Move or delete them first, then delete the block.',
    );
    expect(await api(`/api/v1/building_blocks/${blockId}?account_id=${accountId}`)).toMatchObject({
      name: 'Karoo House',
      parent_id: null,
    });
  });

  it('saves another time-of-use schedule for the tariff and draws its grid', async () => {
    await visit(page, base, `/tariffs/${tariffId}`);
    const monday = page.locator('section[data-season="SUMMER"] tr[data-day="Monday"]');
    const before = await monday.getAttribute('data-runs');
    await visit(page, base, `/tariffs/${tariffId}/edit`);
    await page.getByLabel('Time-of-use schedule', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: 'Save tariff' }).click();
    await page
      .getByRole('heading', { level: 2, name: 'Time-of-use schedule: Eskom Megaflex/Miniflex/Homeflex TOU' })
      .waitFor();
    expect(await page.getByLabel('Time-of-use schedule', { exact: true }).inputValue()).toBe('1');

    await visit(page, base, `/tariffs/${tariffId}`);
    const schedule = await api(`/api/v1/tariffs/${tariffId}/schedule?account_id=${accountId}`);
    expect(schedule.id).toBe(1);
    expect(await monday.getAttribute('data-runs')).not.toBe(before);
  });

  it('creates a tariff with "New tariff", then a transition to it from the cloned tariff, and deletes that transition', async () => {
    await visit(page, base, '/tariffs/new');
    const form = page.getByRole('form', { name: 'New tariff' });
    await form.getByLabel('Name', { exact: true }).fill('Karoo flat 2027');
    await form.getByLabel('Effective from', { exact: true }).fill('2027-04-01');
    await form.getByLabel('Effective to', { exact: true }).fill('2028-03-31');
    await form.getByRole('button', { name: 'Create tariff' }).click();
    await page.waitForURL(/\/tariffs\/\d+\/edit$/);
    const successorId = idInUrl(/\/tariffs\/(\d+)\/edit$/);
    expect(await api(`/api/v1/tariffs/${successorId}?account_id=${accountId}`)).toMatchObject({
      name: 'Karoo flat 2027',
      tariff_type: 'FLAT',
      effective_from: '2027-04-01',
      effective_to: '2028-03-31',
    });

    await visit(page, base, `/tariffs/${tariffId}/edit`);
    const transition = page.getByRole('form', { name: 'New transition' });
    await transition.getByLabel('Successor', { exact: true }).selectOption(String(successorId));
    await transition.getByLabel('Effective from', { exact: true }).fill('2027-04-01');
    await transition.getByRole('button', { name: 'Create transition' }).click();
    const shown = page.getByTestId('transition');
    await shown.waitFor();
    expect(await shown.textContent()).toContain('Karoo flat 2027');
    // 2027-04-01 00:00 in Johannesburg (UTC+2).
    expect(await api(`/api/v1/tariffs/${tariffId}/transitions?account_id=${accountId}`)).toMatchObject({
      successor_id: successorId,
      effective_from: '2027-03-31T22:00:00.000Z',
    });

    await shown.getByRole('button', { name: 'Delete transition' }).click();
    await page.getByRole('form', { name: 'New transition' }).waitFor();
    const gone = await call(t.app, 'GET', `/api/v1/tariffs/${tariffId}/transitions?account_id=${accountId}`, { token });
    expect(gone.status).toBe(404);
  });

  it('lays every set-up page out within 375 pixels', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      for (const path of [
        '/organization',
        '/organizations/new',
        '/buildings/new',
        `/buildings/${blockId}/edit`,
        `/buildings/${blockId}/meters/new`,
        `/meters/${meterId}/edit`,
        `/buildings/${blockId}/dashboard`,
        '/tariffs/new',
        `/tariffs/${tariffId}/edit`,
      ]) {
        await visit(page, base, path);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ path, overflow }).toEqual({ path, overflow: 0 });
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('threw no error in the browser on any page', () => {
    expect(consoleErrors).toEqual([]);
  });
});
