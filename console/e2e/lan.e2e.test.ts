import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/seed/demo.ts';
import { CONSOLE_PAGES, EVERY_PAGE_TIMEOUT_MS, onEveryPage, VIEWPORTS } from './console-pages.ts';
import { describeInChromium, describeWhen } from './in-chromium.ts';
import { settled, signIn } from './pages.ts';
import { type SeededConsole, startSeededConsole } from './seeded-console.ts';

/** The machine's address on its network: the first IPv4 address that is not its own loopback. */
const LAN_ADDRESS = Object.values(networkInterfaces())
  .flat()
  .find((address) => address?.family === 'IPv4' && !address.internal)?.address;

describeInChromium('the console on the network', () => {
  describeWhen(
    LAN_ADDRESS !== undefined,
    'This machine has no network address but its loopback',
    `at the machine's LAN address (${LAN_ADDRESS}) over plain HTTP`,
    () => {
      let c: SeededConsole;

      beforeAll(async () => {
        c = await startSeededConsole({ host: LAN_ADDRESS });
      });

      afterAll(async () => {
        await c?.close();
      });

      it('signs in over plain HTTP, where the page is not a secure context, and shows the dashboard', async () => {
        expect(c.base).toMatch(new RegExp(`^http://${LAN_ADDRESS!.replaceAll('.', '\\.')}:\\d+$`));
        await signIn(c.page, c.base, DEMO_EMAIL, DEMO_PASSWORD);
        await c.page.getByRole('heading', { level: 1, name: 'Demo Campus' }).waitFor();
        await c.page.locator('section[aria-labelledby="energy-heading"] .chart[data-drawn]').waitFor();
        expect(await c.page.evaluate(() => window.isSecureContext)).toBe(false);
      });

      it('stays signed in on a reload: the refresh cookie is not marked Secure over plain HTTP', async () => {
        await c.page.reload();
        await c.page.getByRole('heading', { level: 1, name: 'Demo Campus' }).waitFor();
        await settled(c.page);
        const [cookie] = await c.browser.context.cookies(`${c.base}/api/v1/auth/refresh`);
        expect(cookie).toMatchObject({ name: 'ums_refresh_token', secure: false, httpOnly: true });
      });

      it(
        'shows every page of the console there, none with an error',
        async () => {
          await c.page.getByRole('button', { name: 'Sign out' }).click();
          await c.page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
          const failed: string[] = [];
          let shown = 0;
          await onEveryPage(c.page, c.base, c.seed, async (entry, viewport) => {
            shown++;
            for (const alert of await c.page.getByRole('alert').allTextContents())
              failed.push(`${entry.name}${viewport.suffix}: ${alert}`);
          });
          expect(failed).toEqual([]);
          expect(shown).toBe(CONSOLE_PAGES.length * VIEWPORTS.length);
        },
        EVERY_PAGE_TIMEOUT_MS,
      );

      it('logged no error in the browser console', () => {
        expect(c.consoleErrors).toEqual([]);
      });
    },
  );
});
