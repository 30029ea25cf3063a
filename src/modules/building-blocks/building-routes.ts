import type { Database } from '../../db/types.ts';
import type { AccessGuard } from '../../http/access-guard.ts';
import type { App } from '../../http/types.ts';
import { registerDashboardConfigRoutes } from '../dashboard-config/dashboard-config.routes.ts';
import { createDashboardConfigService } from '../dashboard-config/dashboard-config.service.ts';
import { registerMeterRoutes } from '../meters/meters.routes.ts';
import { createMetersService } from '../meters/meters.service.ts';
import { registerBuildingBlockRoutes } from './building-blocks.routes.ts';
import { createBuildingBlocksService } from './building-blocks.service.ts';

/** Building blocks, their meters and their energy dashboard configs. */
export function registerBuildingRoutes(app: App, deps: { db: Database; guard: AccessGuard }): void {
  registerBuildingBlockRoutes(app, createBuildingBlocksService(deps));
  registerMeterRoutes(app, createMetersService(deps));
  registerDashboardConfigRoutes(app, createDashboardConfigService(deps));
}
