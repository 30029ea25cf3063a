import type { App } from '../../http/types.ts';
import { registerTariffBlockRoutes } from './tariff-blocks.routes.ts';
import { createTariffBlocksService } from './tariff-blocks.service.ts';
import { registerTariffItemRoutes } from './tariff-items.routes.ts';
import { createTariffItemsService, type TariffItemsDeps } from './tariff-items.service.ts';

/** The items of a tariff and the blocks (tiers) of each item. */
export function registerTariffItemsModule(app: App, deps: TariffItemsDeps): void {
  registerTariffItemRoutes(app, createTariffItemsService(deps));
  registerTariffBlockRoutes(app, createTariffBlocksService(deps));
}
