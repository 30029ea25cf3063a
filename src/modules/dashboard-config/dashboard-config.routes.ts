import { ok } from '../../http/envelope.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import type { App } from '../../http/types.ts';
import { upsertConfigBody } from './dashboard-config.schemas.ts';
import type { DashboardConfigService } from './dashboard-config.service.ts';

const tags = ['Energy dashboard config'];
const path = '/api/v1/building_blocks/:id/config';

export function registerDashboardConfigRoutes(app: App, configs: DashboardConfigService): void {
  app.get(path, { schema: { tags, params: idParams, querystring: accountQuery } }, async (req) =>
    ok(await configs.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(path, { schema: { tags, params: idParams, body: upsertConfigBody } }, async (req) =>
    ok(await configs.upsert(req.auth, req.params.id, req.body)),
  );
  app.delete(path, { schema: { tags, params: idParams, querystring: accountQuery } }, async (req, reply) => {
    await configs.remove(req.auth, req.query.account_id, req.params.id);
    return reply.code(204).send();
  });
}
