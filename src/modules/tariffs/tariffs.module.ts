import type { App } from '../../http/types.ts';
import { registerCatalogueRoutes } from './catalogue.routes.ts';
import { createCatalogueService } from './catalogue.service.ts';
import { registerTariffRoutes } from './tariffs.routes.ts';
import { createTariffsService, type TariffsDeps } from './tariffs.service.ts';

/**
 * The organizations' tariffs and their time-of-use schedule, and the global catalogue: tariffs of
 * a fixed account, read by every signed-in user and cloned into an organization.
 */
export function registerTariffsModule(app: App, deps: TariffsDeps): void {
  registerTariffRoutes(app, createTariffsService(deps));
  registerCatalogueRoutes(app, createCatalogueService(deps));
}
