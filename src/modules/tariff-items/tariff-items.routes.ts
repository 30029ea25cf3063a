import { ok, okList } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { tariffIdParams } from '../tariffs/tariffs.schemas.ts';
import { optionalAccountQuery } from './tariff-blocks.schemas.ts';
import { createItemsBody, itemListQuery, itemParams, updateItemBody } from './tariff-items.schemas.ts';
import type { TariffItemsService } from './tariff-items.service.ts';

const tags = ['Tariff items'];
const base = '/api/v1/tariffs/:id/items';

export function registerTariffItemRoutes(app: App, items: TariffItemsService): void {
  app.get(base, { schema: { tags, params: tariffIdParams, querystring: itemListQuery } }, async (req) =>
    okList(await items.list(req.auth, req.params.id, req.query)),
  );
  app.post(
    base,
    { schema: { tags, params: tariffIdParams, querystring: optionalAccountQuery, body: createItemsBody } },
    async (req, reply) =>
      reply.code(201).send(ok(await items.create(req.auth, req.params.id, req.query.account_id, req.body))),
  );
  app.put(
    `${base}/:itemId`,
    { schema: { tags, params: itemParams, querystring: optionalAccountQuery, body: updateItemBody } },
    async (req) => ok(await items.update(req.auth, req.params.id, req.params.itemId, req.query.account_id, req.body)),
  );
  app.delete(
    `${base}/:itemId`,
    { schema: { tags, params: itemParams, querystring: optionalAccountQuery } },
    async (req, reply) => {
      await items.remove(req.auth, req.params.id, req.params.itemId, req.query.account_id);
      return reply.code(204).send();
    },
  );
}
