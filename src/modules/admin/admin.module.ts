import type { App } from '../../http/types.ts';
import { registerAdminRoutes } from './admin.routes.ts';
import { type AdminDeps, createAdminService } from './admin.service.ts';

/** User management for trusted services (the service-role key). */
export function registerAdminModule(app: App, deps: AdminDeps): void {
  registerAdminRoutes(app, createAdminService(deps));
}
