import { ok, okList } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { catalogueIdParams, catalogueListQuery, cloneBody } from './catalogue.schemas.ts';
import type { CatalogueService } from './catalogue.service.ts';

const tags = ['Tariff catalogue'];
// Static segments win over /api/v1/tariffs/:id in Fastify's router, whatever the registration order.
const base = '/api/v1/tariffs/catalogue';

export function registerCatalogueRoutes(app: App, catalogue: CatalogueService): void {
  app.get(base, { schema: { tags, querystring: catalogueListQuery } }, async (req) =>
    okList(await catalogue.list(req.query)),
  );
  app.get(`${base}/:id`, { schema: { tags, params: catalogueIdParams } }, async (req) =>
    ok(await catalogue.get(req.params.id)),
  );
  app.post(`${base}/:id/clone`, { schema: { tags, params: catalogueIdParams, body: cloneBody } }, async (req, reply) =>
    reply.code(201).send(ok(await catalogue.clone(req.auth, req.params.id, req.body))),
  );
}
