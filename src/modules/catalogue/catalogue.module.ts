import type { App } from '../../http/types.ts';
import { registerCatalogueRoutes } from './catalogue.routes.ts';
import { type CatalogueDeps, createCatalogueService } from './catalogue.service.ts';

/** The global tariff catalogue: read by every signed-in user, cloned into an organization. */
export function registerCatalogueModule(app: App, deps: CatalogueDeps): void {
  registerCatalogueRoutes(app, createCatalogueService(deps));
}
