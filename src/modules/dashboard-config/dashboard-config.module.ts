import type { App } from '../../http/types.ts';
import { registerDashboardConfigRoutes } from './dashboard-config.routes.ts';
import {
  createDashboardConfigService,
  type DashboardConfigDeps,
  type DashboardConfigService,
} from './dashboard-config.service.ts';

/** The energy dashboard config of a building block: which meters and tariffs its sources use. */
export function registerDashboardConfigModule(app: App, deps: DashboardConfigDeps): DashboardConfigService {
  const configs = createDashboardConfigService(deps);
  registerDashboardConfigRoutes(app, configs);
  return configs;
}
