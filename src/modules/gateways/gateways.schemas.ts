import { z } from 'zod';
import { accountQuery, bodyId, text } from '../../http/fields.ts';
import { commonSort, listQuerySchema } from '../../http/list.ts';

/** The meters a gateway may push readings of: at most this many (a concentrator's bus). */
export const MAX_GATEWAY_METERS = 1000;

const gatewayFields = z.strictObject({
  name: text(1, 200),
  description: text(0, 2000).nullable().describe('Where it is, what it reads'),
  meter_ids: z
    .array(bodyId)
    .max(MAX_GATEWAY_METERS)
    .refine((ids) => new Set(ids).size === ids.length, 'Must not name a meter twice')
    .describe('Meters of the same organization whose readings the gateway may push'),
});

export const createGatewayBody = gatewayFields.partial({ description: true }).extend(accountQuery.shape);
export type CreateGateway = z.infer<typeof createGatewayBody>;

export const updateGatewayBody = gatewayFields.partial().extend(accountQuery.shape);
export type UpdateGateway = z.infer<typeof updateGatewayBody>;

export const GATEWAY_SORT = commonSort('g', ['last_seen_at']);

export const listGatewaysQuery = listQuerySchema(GATEWAY_SORT).extend(accountQuery.shape);
export type ListGatewaysQuery = z.infer<typeof listGatewaysQuery>;
