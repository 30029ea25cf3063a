import type { App } from '../../http/types.ts';
import { registerMeterRoutes } from './meters.routes.ts';
import { createMetersService, type MetersDeps, type MetersService } from './meters.service.ts';

/** The meters of the organizations' building blocks. */
export function registerMetersModule(app: App, deps: MetersDeps): MetersService {
  const meters = createMetersService(deps);
  registerMeterRoutes(app, meters);
  return meters;
}
