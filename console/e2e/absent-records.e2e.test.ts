import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/seed/demo.ts';
import { describeInChromium } from './in-chromium.ts';
import { signIn, visit } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/**
 * A block without a dashboard config and a tariff without a transition: the console knows from their
 * records and never asks for what is absent, so the browser's console shows no 404.
 */
describeInChromium('records that say what is absent', () => {
  let c: SeededConsole;
  const notFound: string[] = [];
  const seen = (response: Response) => {
    if (response.status() === 404) notFound.push(new URL(response.url()).pathname);
  };

  beforeAll(async () => {
    c = await startSeededConsole();
    await signIn(c.page, c.base, DEMO_EMAIL, DEMO_PASSWORD);
    c.page.on('response', seen);
  });

  afterAll(async () => {
    c?.page.off('response', seen);
    await c?.close();
  });

  it('shows a unit without a dashboard and a tariff without a transition, asking nothing that answers 404', async () => {
    const unit = c.seed.tenants[0]!.blockId;
    await visit(c.page, c.base, `/buildings/${unit}`);
    await c.page.getByRole('link', { name: 'Edit dashboard' }).first().waitFor();
    await c.page.screenshot({ path: join(tmpdir(), 'block-without-dashboard.png') });
    await visit(c.page, c.base, `/tariffs/${c.seed.nextTariffId}/edit`);
    await c.page.getByRole('heading', { name: 'New transition' }).waitFor();
    await c.page.screenshot({ path: join(tmpdir(), 'tariff-without-transition.png'), fullPage: true });
    expect(notFound).toEqual([]);
    expect(c.consoleErrors).toEqual([]);
  });
});
