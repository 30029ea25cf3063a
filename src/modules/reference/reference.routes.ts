import { ok, okAll } from '../../http/envelope.ts';
import type { App } from '../../http/types.ts';
import { scheduleIdParams, scheduleListQuery } from './reference.schemas.ts';
import type { ReferenceService } from './reference.service.ts';

const tags = ['Reference data'];

export function registerReferenceRoutes(app: App, reference: ReferenceService): void {
  app.get('/api/v1/tariff_item_types', { schema: { tags } }, async () => okAll(await reference.itemTypes()));
  app.get('/api/v1/dsos', { schema: { tags } }, async () => okAll(await reference.dsos()));
  app.get('/api/v1/tou_schedules', { schema: { tags, querystring: scheduleListQuery } }, async (req) =>
    okAll(await reference.schedules(req.query.dso_id)),
  );
  app.get('/api/v1/tou_schedules/:id', { schema: { tags, params: scheduleIdParams } }, async (req) =>
    ok(await reference.schedule(req.params.id)),
  );
}
