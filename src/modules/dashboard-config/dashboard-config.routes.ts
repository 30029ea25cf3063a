import { ok } from '../../http/envelope.ts';
import { EXAMPLE, withExample, withParamExamples } from '../../http/examples.ts';
import { accountQuery, idParams } from '../../http/fields.ts';
import { failures, noContent } from '../../http/responses.ts';
import { ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { configResponses } from './dashboard-config.responses.ts';
import { upsertConfigBody } from './dashboard-config.schemas.ts';
import type { DashboardConfigService } from './dashboard-config.service.ts';

const tags = ['Energy dashboard config'];
const path = '/api/v1/building_blocks/:id/config';
const blockParams = withParamExamples(idParams, { id: 1 });
const blockAccount = withParamExamples(accountQuery, { account_id: EXAMPLE.accountId });
const CHECKS = `${recordChecks('building block')} A block without a config: 404.`;
const NO_CONFIG = 'Dashboard config not found';

export function registerDashboardConfigRoutes(app: App, configs: DashboardConfigService): void {
  app.get(
    path,
    {
      schema: {
        tags,
        operationId: 'getDashboardConfig',
        summary: "Get a block's energy dashboard config",
        description: `Which meter measures each energy source of the block (grid, solar, genset, inverter, load, water supply, further submeters) and which tariff prices it. ${ROLE_NEEDED.read} ${CHECKS}`,
        params: blockParams,
        querystring: blockAccount,
        response: { 200: configResponses.config, ...failures({ 400: true, 403: true, 404: NO_CONFIG }) },
      },
    },
    async (req) => ok(await configs.get(req.auth, req.query.account_id, req.params.id)),
  );
  app.put(
    path,
    {
      schema: {
        tags,
        operationId: 'setDashboardConfig',
        summary: "Create or update a block's energy dashboard config",
        description: `Creates the config or changes the fields sent (null clears a field). Meters and tariffs must be the organization's (400 naming the field). ${ROLE_NEEDED.write} Refusals in this order: 403 when the caller is not a member of account_id or the role may not do this; then 404 when the block does not exist or is not in account_id.`,
        params: blockParams,
        body: withExample(upsertConfigBody, {
          account_id: EXAMPLE.accountId,
          grid_meter_id: 1,
          solar_meter_id: 2,
          load_meter_id: 3,
          grid_tariff_id: 1001,
        }),
        response: {
          200: configResponses.config,
          ...failures({
            400: 'grid_meter_id: Meter 99 not found in this organization',
            403: true,
            404: 'Building block not found',
          }),
        },
      },
    },
    async (req) => ok(await configs.upsert(req.auth, req.params.id, req.body)),
  );
  app.delete(
    path,
    {
      schema: {
        tags,
        operationId: 'deleteDashboardConfig',
        summary: "Delete a block's energy dashboard config",
        description: `${ROLE_NEEDED.write} ${CHECKS}`,
        params: blockParams,
        querystring: blockAccount,
        response: { 204: noContent, ...failures({ 400: true, 403: true, 404: NO_CONFIG }) },
      },
    },
    async (req, reply) => {
      await configs.remove(req.auth, req.query.account_id, req.params.id);
      return reply.code(204).send();
    },
  );
}
