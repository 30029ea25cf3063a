import { ok } from '../../http/envelope.ts';
import { EXAMPLE, EXAMPLE_MONTH, withParamExamples } from '../../http/examples.ts';
import { idParams } from '../../http/fields.ts';
import { failures } from '../../http/responses.ts';
import { ADMITTED_AS_WORK, ROLE_NEEDED, recordChecks } from '../../http/route-docs.ts';
import type { App } from '../../http/types.ts';
import { tenantRecoveryResponses } from './tenant-recovery.responses.ts';
import { recoveryQuery, statementsQuery } from './tenant-recovery.schemas.ts';
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
        description: `The block's own grid bill (with source=water: its water supply bill, every quantity in kL, as unit says) over [start, end) (the supply, priced as its building cost prices it) against its tenants: the descendant blocks at any depth whose dashboard config has a meter of the source (grid, or water supply), each priced as its own building cost's source, with its bill's lines, subtotal, VAT, total, rate per kWh and its meter's readings. A tenant without a tariff (or billed in another currency) is listed unpriced with the reason and its metered kWh, and recovers nothing. With reference_tariff_id each tenant's readings are also priced on that tariff (reference_total; over_recovery when the tenant's total is above it by more than 1 %; the tariff as the one-meter cost resolves it: 403 another organization's, 404 unknown). recovered adds the priced tenants; unrecovered = supply - recovered (negative when the tenants are billed more than the supply costs), split into unbilled_kwh (tenants metered, not priced) and common_kwh (the rest); share_pct = unrecovered kWh / supply kWh x 100, 2 decimals (null when the supply imported nothing). The period is at most 366 days. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')} No dashboard config: 404; no meter of the source, or a supply without a tariff: 400.`,
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

  app.get(
    '/api/v1/building_blocks/:id/recovery/statements',
    {
      config: { ownAdmission: true },
      schema: {
        tags: ['Tenant recovery'],
        summary: "The tenants' statements as CSV",
        operationId: 'getTenantStatements',
        description: `What a landlord sends its tenants: the recovery's tenants (as GET /building_blocks/{id}/recovery prices them) as text/csv, one row per line of a tenant's bill with the tenant, period, meter, charge, season, quantity, unit, unit price and amount, then its Subtotal, VAT and Total rows. tenant_id gives one tenant's (404 \`Tenant not found\` when it is not a tenant of the block). UTF-8 with a byte order mark; text beginning with = + - @ is written after a ' so that a spreadsheet shows it as text. ${ADMITTED_AS_WORK} ${ROLE_NEEDED.read} ${recordChecks('building block')} Refusals as the recovery's.`,
        params: withParamExamples(idParams, { id: 1 }),
        querystring: withParamExamples(statementsQuery, { account_id: EXAMPLE.accountId, ...EXAMPLE_MONTH }),
        response: {
          200: tenantRecoveryResponses.statements,
          ...failures({
            400: 'grid: The block has no grid meter',
            403: true,
            404: 'Tenant not found',
            429: true,
          }),
        },
      },
    },
    async (req, reply) => {
      const csv = await recovery.statements(req.auth, req.params.id, req.query);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="statements_${req.query.start.slice(0, 10)}.csv"`)
        .send(csv);
    },
  );
}
