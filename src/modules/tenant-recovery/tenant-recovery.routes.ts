import { ok } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withParamExamples } from '../../http/examples.ts';
import { idParams } from '../../http/fields.ts';
import { failures } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { tenantRecoveryResponses } from './tenant-recovery.responses.ts';
import { recoveryQuery } from './tenant-recovery.schemas.ts';
import type { TenantRecoveryService } from './tenant-recovery.service.ts';

export function registerTenantRecoveryRoutes(app: App, recovery: TenantRecoveryService): void {
  app.get(
    '/api/v1/building_blocks/:id/recovery',
    {
      config: { ownAdmission: true },
      schema: {
        tags: ['Tenant recovery'],
        summary: "A landlord's supply against its tenants' bills",
        operationId: 'getTenantRecovery',
        description: `The block's own grid bill over [start, end) (the supply, priced as its building cost prices it) against its tenants: the descendant blocks at any depth whose dashboard config has a grid meter, each priced as its own building cost's grid source. A tenant without a tariff (or billed in another currency) is listed unpriced with the reason and recovers nothing. recovered adds the priced tenants; unrecovered = supply - recovered (negative when the tenants are billed more than the supply costs); share_pct = unrecovered kWh / supply kWh x 100, 2 decimals (null when the supply imported nothing). The period is at most 366 days. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')} No dashboard config: 404; no grid meter, or a supply without a tariff: 400.`,
        params: withParamExamples(idParams, { id: 1 }),
        querystring: withParamExamples(recoveryQuery, { account_id: EXAMPLE.accountId, ...EXAMPLE_MONTH }),
        response: {
          200: tenantRecoveryResponses.recovery,
          ...failures({
            400: 'grid: The block has no grid meter',
            403: true,
            404: 'Dashboard config not found',
            429: true,
          }),
        },
      },
    },
    async (req) => ok(await recovery.recovery(req.auth, req.params.id, req.query)),
  );
}
