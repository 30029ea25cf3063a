import { type FunctionComponent, lazy } from 'react';

type Pages = typeof import('./pages.ts');

/** A set-up page from the one chunk that holds them all. */
function setupPage<K extends keyof Pages>(name: K): Pages[K] {
  // Each page is a function component of its own props; lazy keeps them.
  return lazy(() =>
    import('./pages.ts').then((pages) => ({ default: pages[name] as FunctionComponent<Parameters<Pages[K]>[0]> })),
  ) as unknown as Pages[K];
}

export const OrganizationPage = setupPage('OrganizationPage');
export const NewOrganizationPage = setupPage('NewOrganizationPage');
export const NewBlockPage = setupPage('NewBlockPage');
export const EditBlockPage = setupPage('EditBlockPage');
export const NewMeterPage = setupPage('NewMeterPage');
export const EditMeterPage = setupPage('EditMeterPage');
export const DashboardConfigPage = setupPage('DashboardConfigPage');
export const NewTariffPage = setupPage('NewTariffPage');
export const EditTariffPage = setupPage('EditTariffPage');
export const GatewaysPage = setupPage('GatewaysPage');
