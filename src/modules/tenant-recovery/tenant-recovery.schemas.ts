import { z } from 'zod';
import { recordId, uuid } from '../../http/fields.ts';
import { periodFields, validPeriod } from '../../http/period.ts';

export const recoveryQuery = z
  .object({
    account_id: uuid,
    ...periodFields,
    reference_tariff_id: recordId
      .optional()
      .describe("The tariff the tenants would pay the utility directly: each tenant's readings priced on it"),
  })
  .superRefine(validPeriod);

export const statementsQuery = z
  .object({
    account_id: uuid,
    ...periodFields,
    tenant_id: recordId.optional().describe("One tenant's statement: the tenant's building block id"),
  })
  .superRefine(validPeriod);

export type RecoveryQuery = z.infer<typeof recoveryQuery>;
export type StatementsQuery = z.infer<typeof statementsQuery>;
