import type { App } from '../../http/types.ts';
import { registerTariffRoutes } from './tariffs.routes.ts';
import { createTariffsService, type TariffsDeps } from './tariffs.service.ts';

/** The organizations' tariffs and their time-of-use schedule. */
export function registerTariffsModule(app: App, deps: TariffsDeps): void {
  registerTariffRoutes(app, createTariffsService(deps));
}
