import { z } from 'zod';
import { recordId, uuid } from '../../http/fields.ts';
import { periodFields, validPeriod } from '../../http/period.ts';

/** The supply recovered: the grid's electricity (kWh) or the water supply (kL). */
export const RECOVERY_SOURCES = ['grid', 'water'] as const;
export type RecoverySource = (typeof RECOVERY_SOURCES)[number];

const source = z
  .enum(RECOVERY_SOURCES)
  .default('grid')
  .describe("grid: the blocks' grid meters and tariffs, in kWh; water: their water supply meters and tariffs, in kL");

export const recoveryQuery = z
  .object({
    account_id: uuid,
    ...periodFields,
    source,
    reference_tariff_id: recordId
      .optional()
      .describe("The tariff the tenants would pay the utility directly: each tenant's readings priced on it"),
  })
  .superRefine(validPeriod);

export const statementsQuery = z
  .object({
    account_id: uuid,
    ...periodFields,
    source,
    tenant_id: recordId.optional().describe("One tenant's statement: the tenant's building block id"),
  })
  .superRefine(validPeriod);

export type RecoveryQuery = z.infer<typeof recoveryQuery>;
export type StatementsQuery = z.infer<typeof statementsQuery>;
