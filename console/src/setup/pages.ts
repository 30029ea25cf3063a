/** The set-up pages, loaded on first use (setup/lazy-pages.tsx) so that the first page stays small. */
export { EditBlockPage, NewBlockPage } from './block-form.tsx';
export { DashboardConfigPage } from './config-form.tsx';
export { EditTariffPage } from './edit-tariff-page.tsx';
export { GatewaysPage } from './gateways.tsx';
export { EditMeterPage, NewMeterPage } from './meter-form.tsx';
export { NewOrganizationPage } from './new-organization.tsx';
export { OrganizationPage } from './organization-page.tsx';
export { NewTariffPage } from './tariff-form.tsx';
