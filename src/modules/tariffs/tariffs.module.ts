import type { App } from '../../http/types.ts';
import { registerCatalogueRoutes } from '../catalogue/catalogue.routes.ts';
import { createCatalogueService } from '../catalogue/catalogue.service.ts';
import { registerReferenceRoutes } from '../reference/reference.routes.ts';
import { createReferenceService } from '../reference/reference.service.ts';
import { registerTariffBlockRoutes } from '../tariff-items/tariff-blocks.routes.ts';
import { createTariffBlocksService } from '../tariff-items/tariff-blocks.service.ts';
import { registerTariffItemRoutes } from '../tariff-items/tariff-items.routes.ts';
import { createTariffItemsService } from '../tariff-items/tariff-items.service.ts';
import { registerTariffRoutes } from './tariffs.routes.ts';
import { createTariffsService, type TariffsDeps } from './tariffs.service.ts';

/** Tariffs with their items and blocks, the catalogue, and the reference data they are built on. */
export function registerTariffModules(app: App, deps: TariffsDeps): void {
  registerTariffRoutes(app, createTariffsService(deps));
  registerTariffItemRoutes(app, createTariffItemsService(deps));
  registerTariffBlockRoutes(app, createTariffBlocksService(deps));
  registerCatalogueRoutes(app, createCatalogueService(deps));
  registerReferenceRoutes(app, createReferenceService(deps.db));
}
