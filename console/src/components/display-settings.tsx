import { useSyncExternalStore } from 'react';
import { chooseLocale, type LocaleChoice, localeChoice, subscribeLocale } from '../lib/locale.ts';
import { useOrganization } from '../organization.tsx';

const zones = (): string[] => Intl.supportedValuesOf('timeZone');

/** The language of dates and numbers, and the time zone of times and months. */
export function DisplaySettings() {
  const { tz, tariffZone, chooseZone } = useOrganization();
  const choice = useSyncExternalStore(subscribeLocale, localeChoice);
  return (
    <details className="settings no-print">
      <summary>Display</summary>
      <div className="settings-body">
        <div>
          <label htmlFor="display-locale">Dates and numbers</label>
          <select id="display-locale" value={choice} onChange={(e) => chooseLocale(e.target.value as LocaleChoice)}>
            <option value="en-ZA">South African English (en-ZA)</option>
            <option value="browser">This browser's ({navigator.language})</option>
          </select>
        </div>
        <div>
          <label htmlFor="display-zone">Time zone</label>
          <select
            id="display-zone"
            value={tz === tariffZone ? '' : tz}
            onChange={(e) => chooseZone(e.target.value || null)}
          >
            <option value="">The tariffs' zone ({tariffZone})</option>
            {zones()
              .filter((zone) => zone !== tariffZone)
              .map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
          </select>
        </div>
      </div>
    </details>
  );
}
