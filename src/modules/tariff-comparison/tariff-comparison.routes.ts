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
        description: `What the source's readings of [start, end) cost now and on other tariffs (extensions §12.2, §13.1). \`current\` is the source's bills exactly as the building cost prices them (tariff history, pending transitions). Candidates: \`tariff_ids\` (at most ${MAX_CANDIDATES}, the organization's or the catalogue's), else the live electricity tariffs of the organization and the catalogue in the current bill's currency, of the current tariff's DSO (or of none; any DSO when the current tariff has none), in force on the period's last day and eligible: customer_classes holding the block's building_type, the NMD within min_nmd_kva..max_nmd_kva; one per family (the organization's own first). Each candidate is priced through its family: each day with the version whose effective dates hold it (the named tariff where none does), the capacity charges on nmd_kva_used. The NMD: the meter's, else nmd_kva (what-if), else the highest half hour of the 12 months before end rounded up (said in warnings). Each says whether the block may take it (eligible, reasons). Sorted by total, then tariff_id; a candidate that cannot price the readings or prices none of their energy has total null and the reason in warnings, after the others. difference = total - current.total. recommendation: the cheapest eligible, complete candidate that saves more than 1 % of the current total, else null with recommendation_reason. The period is at most 366 days. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')} No dashboard config: 404; a source without a meter: 400; a named tariff of another organization 403, unknown 404.`,
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
