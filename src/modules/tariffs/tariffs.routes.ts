import { ok, okList } from '../../http/envelope.ts';
import { accountQuery } from '../../http/fields.ts';
import type { App } from '../../http/types.ts';
import { createTariffBody, tariffIdParams, tariffListQuery, updateTariffBody } from './tariffs.schemas.ts';
import type { TariffsService } from './tariffs.service.ts';

const tags = ['Tariffs'];
const base = '/api/v1/tariffs';

export function registerTariffRoutes(app: App, tariffs: TariffsService): void {
  app.get(base, { schema: { tags, querystring: tariffListQuery } }, async (req) =>
    okList(await tariffs.list(req.auth, req.query)),
  );
  app.post(base, { schema: { tags, body: createTariffBody } }, async (req, reply) =>
    reply.code(201).send(ok(await tariffs.create(req.auth, req.body))),
  );
  app.get(`${base}/:id`, { schema: { tags, params: tariffIdParams, querystring: accountQuery } }, async (req) =>
    ok(await tariffs.get(req.auth, req.params.id, req.query.account_id)),
  );
  app.put(`${base}/:id`, { schema: { tags, params: tariffIdParams, body: updateTariffBody } }, async (req) =>
    ok(await tariffs.update(req.auth, req.params.id, req.body)),
  );
  app.delete(
    `${base}/:id`,
    { schema: { tags, params: tariffIdParams, querystring: accountQuery } },
    async (req, reply) => {
      await tariffs.remove(req.auth, req.params.id, req.query.account_id);
      return reply.code(204).send();
    },
  );
  app.get(
    `${base}/:id/schedule`,
    { schema: { tags, params: tariffIdParams, querystring: accountQuery } },
    async (req) => ok(await tariffs.schedule(req.auth, req.params.id, req.query.account_id)),
  );
}
