import { describe, it } from 'vitest';
import { CHROMIUM, chromiumInstalled } from './browser.ts';

/**
 * A describe() that runs when `ready` is true; otherwise, under CI=true, one test that fails with
 * `missing` and, elsewhere, a warning that the tests are skipped.
 */
export function describeWhen(ready: boolean, missing: string, name: string, tests: () => void): void {
  if (!ready) {
    if (process.env.CI === 'true') {
      it(`${name}: cannot run under CI`, () => {
        throw new Error(`${missing}: ${name} cannot run`);
      });
    } else {
      console.warn(`${missing}: ${name} skipped`);
    }
  }
  describe.runIf(ready)(name, tests);
}

/** Tests that drive Debian's Chromium: they need it installed. */
export function describeInChromium(name: string, tests: () => void): void {
  describeWhen(
    chromiumInstalled(),
    `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`,
    name,
    tests,
  );
}
