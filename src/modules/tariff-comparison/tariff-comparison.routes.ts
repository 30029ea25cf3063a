import { ok } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withParamExamples } from '../../http/examples.ts';
import { idParams } from '../../http/fields.ts';
import { failures } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { tariffComparisonResponses } from './tariff-comparison.responses.ts';
import { comparisonQuery, MAX_CANDIDATES } from './tariff-comparison.schemas.ts';
import type { TariffComparisonService } from './tariff-comparison.service.ts';

export function registerTariffComparisonRoutes(app: App, comparison: TariffComparisonService): void {
  app.get(
    '/api/v1/building_blocks/:id/tariff-comparison',
    {
      config: { ownAdmission: true },
      schema: {
        tags: ['Tariff comparison'],
        summary: 'Compare tariffs for a building block',
        operationId: 'getTariffComparison',
        description: `What the source's readings of [start, end) cost now and on other tariffs. \`current\` is the source's bills exactly as the building cost prices them (tariff history, pending transitions); each candidate prices the same readings over the whole period with one tariff, as the one-meter cost does. Candidates: \`tariff_ids\` (at most ${MAX_CANDIDATES}, the organization's or the catalogue's), else every live tariff of the organization and every catalogue electricity tariff in the current bill's currency. Sorted by total, then tariff_id; a candidate that cannot price the readings has total null and the reason in warnings, after the others. difference = total - current.total. The period is at most 366 days. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')} No dashboard config: 404; a source without a meter: 400; a named tariff of another organization 403, unknown 404.`,
        params: withParamExamples(idParams, { id: 1 }),
        querystring: withParamExamples(comparisonQuery, {
          account_id: EXAMPLE.accountId,
          source: 'grid',
          ...EXAMPLE_MONTH,
          tariff_ids: '1001',
        }),
        response: {
          200: tariffComparisonResponses.comparison,
          ...failures({
            400: 'source: The solar source has no meter',
            403: true,
            404: 'Dashboard config not found',
            429: true,
          }),
        },
      },
    },
    async (req) => ok(await comparison.compare(req.auth, req.params.id, req.query)),
  );
}
