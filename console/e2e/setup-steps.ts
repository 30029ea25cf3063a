import type { Page } from 'playwright-core';

/** Set-up steps as a manager takes them in the console, shared by the end-to-end tests. */

/** Signs up through the form. */
export async function signUp(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/sign-up`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign up' }).click();
}

/** "New organization" from the empty building list: the console switches to it. */
export async function newOrganization(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: 'New organization' }).click();
  await page.getByRole('heading', { level: 1, name: 'New organization' }).waitFor();
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.getByText('This organization has no building blocks yet.').waitFor();
}

export interface BlockFields {
  name: string;
  type: string;
  address: string;
  city: string;
  state: string;
  postalCode: string;
  area: string;
}

/** "New building block", filled in and created: its dashboard shows next. */
export async function newBuildingBlock(page: Page, block: BlockFields): Promise<void> {
  await page.getByRole('link', { name: 'New building block' }).click();
  await page.getByLabel('Name').fill(block.name);
  await page.getByLabel('Type').selectOption(block.type);
  await page.getByLabel('Address').fill(block.address);
  await page.getByLabel('City').fill(block.city);
  await page.getByLabel('Province or state').fill(block.state);
  await page.getByLabel('Postal code').fill(block.postalCode);
  await page.getByLabel('Floor area (m²)').fill(block.area);
  await page.getByRole('button', { name: 'Create building block' }).click();
  await page.getByRole('heading', { level: 1, name: block.name }).waitFor();
}

/** "New meter" of the building block shown, with its NMD (and installation day): the meter's page shows next. */
export async function newMeter(
  page: Page,
  meter: { serial: string; name: string; nmdKva: string; installedOn?: string },
): Promise<void> {
  await page.getByRole('link', { name: 'New meter' }).click();
  await page.getByLabel('Serial number').fill(meter.serial);
  await page.getByLabel('Name', { exact: true }).fill(meter.name);
  await page.getByLabel('Notified maximum demand (NMD, kVA)').fill(meter.nmdKva);
  if (meter.installedOn) await page.getByLabel('Installed on').fill(meter.installedOn);
  await page.getByRole('button', { name: 'Create meter' }).click();
  await page.getByRole('heading', { level: 1, name: new RegExp(meter.name) }).waitFor();
}
