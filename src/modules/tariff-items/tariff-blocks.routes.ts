import { ok, okAll } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { blockParams, optionalAccountQuery, tierSet, updateBlockBody } from './tariff-blocks.schemas.ts';
import type { BlockAddress, TariffBlocksService } from './tariff-blocks.service.ts';
import { itemParams } from './tariff-items.schemas.ts';

const tags = ['Tariff item blocks'];
const base = '/api/v1/tariffs/:id/items/:itemId/blocks';

const address = (params: { id: number; itemId: number }, query: { account_id?: string | undefined }): BlockAddress => ({
  tariffId: params.id,
  itemId: params.itemId,
  accountId: query.account_id,
});

export function registerTariffBlockRoutes(app: App, blocks: TariffBlocksService): void {
  app.get(base, { schema: { tags, params: itemParams, querystring: optionalAccountQuery } }, async (req) =>
    okAll(await blocks.list(req.auth, address(req.params, req.query))),
  );
  app.post(
    base,
    { schema: { tags, params: itemParams, querystring: optionalAccountQuery, body: tierSet } },
    async (req, reply) =>
      reply.code(201).send(ok(await blocks.replace(req.auth, address(req.params, req.query), req.body))),
  );
  app.put(
    `${base}/:blockId`,
    { schema: { tags, params: blockParams, querystring: optionalAccountQuery, body: updateBlockBody } },
    async (req) => ok(await blocks.update(req.auth, address(req.params, req.query), req.params.blockId, req.body)),
  );
  app.delete(
    `${base}/:blockId`,
    { schema: { tags, params: blockParams, querystring: optionalAccountQuery } },
    async (req, reply) => {
      await blocks.remove(req.auth, address(req.params, req.query), req.params.blockId);
      return reply.code(204).send();
    },
  );
}
