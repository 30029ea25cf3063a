import { ok, okList } from '../../http/envelope.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import type { App } from '../../http/types.ts';
import {
  createBuildingBlockBody,
  listBuildingBlocksQuery,
  updateBuildingBlockBody,
} from './building-blocks.schemas.ts';
import type { BuildingBlocksService } from './building-blocks.service.ts';

const tags = ['Building blocks'];
const base = '/api/v1/building_blocks';

export function registerBuildingBlockRoutes(app: App, blocks: BuildingBlocksService): void {
  app.get(base, { schema: { tags, querystring: listBuildingBlocksQuery } }, async (req) =>
    okList(await blocks.list(req.auth, req.query)),
  );
  app.post(base, { schema: { tags, body: createBuildingBlockBody } }, async (req, reply) =>
    reply.code(201).send(ok(await blocks.create(req.auth, req.body))),
  );
  app.get(`${base}/:id`, { schema: { tags, params: idParams, querystring: accountQuery } }, async (req) =>
    ok(await blocks.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(`${base}/:id`, { schema: { tags, params: idParams, body: updateBuildingBlockBody } }, async (req) =>
    ok(await blocks.update(req.auth, req.params.id, req.body)),
  );
  app.delete(`${base}/:id`, { schema: { tags, params: idParams, querystring: accountQuery } }, async (req, reply) => {
    await blocks.remove(req.auth, req.query.account_id, req.params.id);
    return reply.code(204).send();
  });
}
