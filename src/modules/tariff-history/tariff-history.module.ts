import type { App } from '../../http/types.ts';
import { registerTariffHistoryRoutes } from './tariff-history.routes.ts';
import { createTariffHistoryService, type TariffHistoryDeps } from './tariff-history.service.ts';

/** The tariff history of meters and of dashboard config sources (recorded by those modules and by transitions). */
export function registerTariffHistoryModule(app: App, deps: TariffHistoryDeps): void {
  registerTariffHistoryRoutes(app, createTariffHistoryService(deps));
}
