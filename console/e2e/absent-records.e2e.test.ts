import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Response } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/seed/demo.ts';
import { call } from '../../test/helpers/http.ts';
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

  it('shows a building without a dashboard and a tariff without a transition, asking nothing that answers 404', async () => {
    const blocks = await call(c.t.app, 'GET', '/api/v1/building_blocks', {
      token: c.token,
      query: { account_id: c.seed.accountId, limit: 100 },
    });
    // The building above the tenants' units: meters below it to chart, no dashboard config of its own.
    type Block = { id: number; parent_id: number | null; has_dashboard_config: boolean };
    const tenantUnit = blocks.body.data.find((b: Block) => b.id === c.seed.tenants[0]!.blockId);
    const building = blocks.body.data.find((b: Block) => b.id === tenantUnit.parent_id);
    expect(building.has_dashboard_config).toBe(false);
    await visit(c.page, c.base, `/buildings/${building.id}`);
    await c.page.getByText('No energy dashboard is configured for this block').waitFor();
    await c.page.screenshot({ path: join(tmpdir(), 'block-without-dashboard.png') });
    await visit(c.page, c.base, `/buildings/${building.id}/dashboard`);
    await c.page
      .getByRole('heading', { name: /dashboard/i })
      .first()
      .waitFor();
    await c.page.screenshot({ path: join(tmpdir(), 'dashboard-form-without-config.png') });
    await visit(c.page, c.base, `/tariffs/${c.seed.nextTariffId}/edit`);
    await c.page.getByRole('heading', { name: 'New transition' }).waitFor();
    await c.page.screenshot({ path: join(tmpdir(), 'tariff-without-transition.png'), fullPage: true });
    expect(notFound).toEqual([]);
    expect(c.consoleErrors).toEqual([]);
  });
});
