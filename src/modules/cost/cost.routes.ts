import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { recordId } from '../../http/fields.ts';
import type { App } from '../../http/types.ts';
import { buildingCostQuery, tariffCostQuery } from './cost.schemas.ts';
import type { CostService } from './cost.service.ts';

const tags = ['Energy cost'];
const params = z.object({ id: recordId });

export function registerCostRoutes(app: App, cost: CostService): void {
  app.get('/api/v1/tariffs/:id/cost', { schema: { tags, params, querystring: tariffCostQuery } }, async (req) =>
    ok(await cost.priceMeter(req.auth, req.params.id, req.query)),
  );
  app.get(
    '/api/v1/building_blocks/:id/energy-cost',
    { schema: { tags, params, querystring: buildingCostQuery } },
    async (req) => ok(await cost.priceBuilding(req.auth, req.params.id, req.query)),
  );
}
