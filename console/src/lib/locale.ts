/**
 * The one language the console writes dates and numbers in: South African English unless the
 * reader chooses the browser's own, remembered in this browser.
 */

export type LocaleChoice = 'en-ZA' | 'browser';

export const DEFAULT_LOCALE = 'en-ZA';
const KEY = 'ums.locale';
const listeners = new Set<() => void>();

let choice: LocaleChoice = globalThis.localStorage?.getItem(KEY) === 'browser' ? 'browser' : 'en-ZA';

export const localeChoice = (): LocaleChoice => choice;

/** The BCP 47 tag every format uses. */
export function locale(): string {
  return choice === 'browser' ? (globalThis.navigator?.language ?? DEFAULT_LOCALE) : DEFAULT_LOCALE;
}

export function chooseLocale(next: LocaleChoice): void {
  choice = next;
  globalThis.localStorage?.setItem(KEY, next);
  for (const listener of listeners) listener();
}

export function subscribeLocale(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
