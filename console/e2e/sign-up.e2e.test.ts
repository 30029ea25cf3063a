import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call } from '../../test/helpers/http.ts';
import { describeInChromium } from './in-chromium.ts';
import { type RunningConsole, startConsole } from './running-console.ts';
import { signUp } from './setup-steps.ts';

/** Where the screenshot of the refused sign-up goes, to be looked at. */
const SCREENSHOT = process.env.SIGN_UP_SCREENSHOT;

describeInChromium('signing up with an e-mail address already registered', () => {
  let running: RunningConsole;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    // The refused sign-up is logged by Chromium as a failed load.
    running = await startConsole({
      expectedErrors: /^Failed to load resource: the server responded with a status of 4\d\d/,
    });
    ({ page, base } = running);
  });
  afterAll(async () => running?.close());

  it('says so in words, from the code of the refusal', async () => {
    const credentials = { email: `taken-${crypto.randomUUID().slice(0, 8)}@example.com`, password: 'long password 1' };
    expect((await call(running.t.app, 'POST', '/api/v1/auth/signup', { body: credentials })).status).toBe(200);
    await signUp(page, base, credentials.email, credentials.password);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'An account with this e-mail address already exists. Sign in instead, or use another address.',
    );
    if (SCREENSHOT) await page.screenshot({ path: SCREENSHOT, fullPage: true });
  });
});
