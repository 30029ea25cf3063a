import type { App } from '../../http/types.ts';
import { registerOrganizationRoutes } from './organizations.routes.ts';
import { createOrganizationsService, type OrganizationsDeps } from './organizations.service.ts';

/** Organizations and their members. */
export function registerOrganizationsModule(app: App, deps: OrganizationsDeps): void {
  registerOrganizationRoutes(app, createOrganizationsService(deps));
}
