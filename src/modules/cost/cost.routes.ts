import { z } from 'zod';
import { ok } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withParamExamples } from '../../http/examples.ts';
import { recordId } from '../../http/fields.ts';
import { failures } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { costResponses } from './cost.responses.ts';
import { buildingCostQuery, tariffCostQuery } from './cost.schemas.ts';
import type { CostService } from './cost.service.ts';

const tags = ['Energy cost'];
const params = z.object({ id: recordId });
const PERIOD = `The period is [start, end), ISO 8601 with Z or an offset, at most 366 days. The bill is computed per calendar month of the tariff's timezone: money is computed exactly and rounded to the cent per line, each month's tax = its subtotal x tax_rate / 100 rounded to the cent, and the bill's lines, subtotal, tax and total are the months' added up. Nothing is dropped silently: a quantity no item prices is named in the warnings, and complete is true only when nothing is missing and nothing is unpriced. An amount beyond 9,999,999,999,999.99 in magnitude (where a JSON number stops being exact to the cent) is refused with 400 naming the month or the period.`;
const period = { account_id: EXAMPLE.accountId, ...EXAMPLE_MONTH };

export function registerCostRoutes(app: App, cost: CostService): void {
  app.get(
    '/api/v1/tariffs/:id/cost',
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getTariffCost',
        summary: "Price a meter's readings with a tariff",
        description: `What the meter's readings of the period cost under the tariff in the path (the organization's own or a catalogue tariff), whatever tariff the meter has: the bill with its lines by item, season, time-of-use period and tier. ${PERIOD} ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} Refusals in this order: 403 when the caller is not a member of account_id; for meter_sn 404 when unknown, 403 when another organization's, 400 when not an electricity meter; for the tariff 404 when unknown, 403 when another organization's.`,
        params: withParamExamples(params, { id: 1001 }),
        querystring: withParamExamples(tariffCostQuery, { ...period, meter_sn: 'DEMO-GRID-001' }),
        response: {
          200: costResponses.meter,
          ...failures({
            400: 'end: The period may span at most 366 days',
            403: true,
            404: 'Meter not found',
            429: true,
          }),
        },
      },
    },
    async (req) => ok(await cost.priceMeter(req.auth, req.params.id, req.query)),
  );
  app.get(
    '/api/v1/building_blocks/:id/energy-cost',
    {
      config: { ownAdmission: true },
      schema: {
        tags,
        operationId: 'getBuildingBlockEnergyCost',
        summary: "A building block's energy cost",
        description: `Prices each energy source of the block's dashboard config (grid, solar, genset, inverter, load) that has both a meter and a tariff, and lists the others as unpriced with the reason; totals by currency. A transition of a source's tariff inside the period splits its bill: the predecessor prices the part before effective_from, the successor the rest. ${PERIOD} ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')} A block without a dashboard config: 404.`,
        params: withParamExamples(params, { id: 1 }),
        querystring: withParamExamples(buildingCostQuery, period),
        response: {
          200: costResponses.building,
          ...failures({ 400: 'end: end must be after start', 403: true, 404: 'Dashboard config not found', 429: true }),
        },
      },
    },
    async (req) => ok(await cost.priceBuilding(req.auth, req.params.id, req.query)),
  );
}
