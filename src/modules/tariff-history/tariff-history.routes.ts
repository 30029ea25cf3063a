import { okAll } from '../../http/envelope.ts';
import { failures } from '../../http/responses.ts';
import type { App } from '../../http/types.ts';
import { tariffHistoryResponses } from './tariff-history.responses.ts';
import { historyParams, historyQuery } from './tariff-history.schemas.ts';
import type { TariffHistoryService } from './tariff-history.service.ts';

const RECORD =
  'Each record: id, tariff_id (null: no tariff), effective_from (null: from the beginning of time, ' +
  'the first record), recorded_at, cause (CREATE: a meter created with it; UPDATE: a request changed it; ' +
  'TRANSITION: a transition was applied, effective at its effective_from; DELETE: the config was deleted; ' +
  'EXISTING: assigned before history began) and transition_id (for TRANSITION). Oldest first, all of them.';

export function registerTariffHistoryRoutes(app: App, history: TariffHistoryService): void {
  app.get(
    '/api/v1/meters/:id/tariff-history',
    {
      schema: {
        tags: ['Meters'],
        operationId: 'listMeterTariffHistory',
        summary: "The meter's tariff history",
        description: `Every change of the tariff of the meter, with the instant it takes effect. ${RECORD}`,
        params: historyParams('The meter'),
        querystring: historyQuery,
        response: {
          200: tariffHistoryResponses.meter,
          ...failures({ 400: true, 403: true, 404: 'Meter not found' }),
        },
      },
    },
    async (req) => okAll(await history.ofMeter(req.auth, req.query.account_id, req.params.id)),
  );
  app.get(
    '/api/v1/building_blocks/:id/config/tariff-history',
    {
      schema: {
        tags: ['Energy dashboard config'],
        operationId: 'listDashboardConfigTariffHistory',
        summary: 'The tariff history of the config’s sources',
        description:
          'Every change of the tariff of each source (grid, solar, genset, inverter, load) of the ' +
          `block's dashboard config, with the instant it takes effect; the building cost prices each ` +
          `instant with the tariff recorded for it. ${RECORD} Each also names its source.`,
        params: historyParams('The building block'),
        querystring: historyQuery,
        response: {
          200: tariffHistoryResponses.config,
          ...failures({ 400: true, 403: true, 404: 'Dashboard config not found' }),
        },
      },
    },
    async (req) => okAll(await history.ofConfig(req.auth, req.query.account_id, req.params.id)),
  );
}
