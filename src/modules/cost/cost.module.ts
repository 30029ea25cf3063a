import type { App } from '../../http/types.ts';
import { registerCostRoutes } from './cost.routes.ts';
import { type CostDeps, createCostService } from './cost.service.ts';

/** The energy cost of a meter under a tariff, and of a building block's configured sources. */
export function registerCostModule(app: App, deps: CostDeps) {
  const cost = createCostService(deps);
  registerCostRoutes(app, cost);
  return cost;
}
