import { ok } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { accountQuery, createTransitionBody, tariffIdParams, updateTransitionBody } from './transitions.schemas.ts';
import type { TransitionsService } from './transitions.service.ts';

const tags = ['Tariff transitions'];
const path = '/api/v1/tariffs/:id/transitions';

export function registerTransitionRoutes(app: App, transitions: TransitionsService): void {
  app.get(path, { schema: { tags, params: tariffIdParams, querystring: accountQuery } }, async (req) =>
    ok(await transitions.get(req.auth, req.params.id, req.query.account_id)),
  );
  app.post(path, { schema: { tags, params: tariffIdParams, body: createTransitionBody } }, async (req, reply) =>
    reply.code(201).send(ok(await transitions.create(req.auth, req.params.id, req.body))),
  );
  app.put(path, { schema: { tags, params: tariffIdParams, body: updateTransitionBody } }, async (req) =>
    ok(await transitions.update(req.auth, req.params.id, req.body)),
  );
  app.delete(path, { schema: { tags, params: tariffIdParams, querystring: accountQuery } }, async (req, reply) => {
    await transitions.remove(req.auth, req.params.id, req.query.account_id);
    return reply.code(204).send();
  });
}
