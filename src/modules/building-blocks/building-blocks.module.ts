import type { App } from '../../http/types.ts';
import { registerBuildingBlockRoutes } from './building-blocks.routes.ts';
import {
  type BuildingBlocksDeps,
  type BuildingBlocksService,
  createBuildingBlocksService,
} from './building-blocks.service.ts';

/** The organizations' building blocks (sites, buildings, units) and their hierarchy. */
export function registerBuildingBlocksModule(app: App, deps: BuildingBlocksDeps): BuildingBlocksService {
  const blocks = createBuildingBlocksService(deps);
  registerBuildingBlockRoutes(app, blocks);
  return blocks;
}
