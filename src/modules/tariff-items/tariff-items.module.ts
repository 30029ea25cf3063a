import type { App } from '../../http/types.ts';
import type { TariffItemsReader } from '../tariffs/tariffs.model.ts';
import { registerTariffBlockRoutes } from './tariff-blocks.routes.ts';
import { createTariffBlocksService } from './tariff-blocks.service.ts';
import { tariffItemsRepository } from './tariff-items.repository.ts';
import { registerTariffItemRoutes } from './tariff-items.routes.ts';
import { createTariffItemsService, type TariffItemsDeps } from './tariff-items.service.ts';

/** What the tariffs module reads of items: a tariff's details, and the rule on changing its type. */
export const createTariffItemsReader = (): TariffItemsReader => ({
  ofTariff: tariffItemsRepository.ofTariff,
  withDemandPeriods: tariffItemsRepository.withDemandPeriods,
});

/** The items of a tariff and the blocks (tiers) of each item. */
export function registerTariffItemsModule(app: App, deps: TariffItemsDeps): void {
  registerTariffItemRoutes(app, createTariffItemsService(deps));
  registerTariffBlockRoutes(app, createTariffBlocksService(deps));
}
