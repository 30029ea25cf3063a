import type { App } from '../../http/types.ts';
import { registerTariffComparisonRoutes } from './tariff-comparison.routes.ts';
import { createTariffComparisonService, type TariffComparisonDeps } from './tariff-comparison.service.ts';

/** Which tariff a building block's source would cost least on: its current bill against candidate tariffs. */
export function registerTariffComparisonModule(app: App, deps: TariffComparisonDeps): void {
  registerTariffComparisonRoutes(app, createTariffComparisonService(deps));
}
