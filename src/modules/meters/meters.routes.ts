import { ok, okList } from '../../http/envelope.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import type { App } from '../../http/types.ts';
import {
  blockMetersQuery,
  createMeterBody,
  deleteMeterQuery,
  listMetersQuery,
  updateMeterBody,
} from './meters.schemas.ts';
import type { MetersService } from './meters.service.ts';

const tags = ['Meters'];
const base = '/api/v1/meters';

export function registerMeterRoutes(app: App, meters: MetersService): void {
  app.get(base, { schema: { tags, querystring: listMetersQuery } }, async (req) =>
    okList(await meters.list(req.auth, req.query)),
  );
  app.get(
    '/api/v1/building_blocks/:id/meters',
    { schema: { tags, params: idParams, querystring: blockMetersQuery } },
    async (req) => okList(await meters.listOfBlock(req.auth, req.params.id, req.query)),
  );
  app.post(base, { schema: { tags, body: createMeterBody } }, async (req, reply) =>
    reply.code(201).send(ok(await meters.create(req.auth, req.body))),
  );
  app.get(`${base}/:id`, { schema: { tags, params: idParams, querystring: accountQuery } }, async (req) =>
    ok(await meters.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(`${base}/:id`, { schema: { tags, params: idParams, body: updateMeterBody } }, async (req) =>
    ok(await meters.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    { schema: { tags, params: idParams, querystring: deleteMeterQuery } },
    async (req, reply) => {
      await meters.remove(req.auth, req.query.account_id, req.params.id, req.query.force);
      return reply.code(204).send();
    },
  );
}
