import { z } from 'zod';
import { EXAMPLE } from '../../http/examples.ts';
import { integer, listEnvelope, okEnvelope, timestamp, uuidValue } from '../../http/responses.ts';

const gatewayFields = {
  id: integer,
  account_id: uuidValue,
  name: z.string(),
  description: z.string().nullable(),
  meter_ids: z.array(integer).describe('The meters whose readings it may push, ascending'),
  last_seen_at: timestamp.nullable().describe('When it last stored readings; null before its first push'),
  revoked_at: z.null().describe('Always null: a deleted gateway and its key are gone'),
  created_at: timestamp,
  updated_at: timestamp,
};

const example = {
  id: 1,
  account_id: EXAMPLE.accountId,
  name: 'Main DB logger',
  description: 'Modbus concentrator in the main distribution board',
  meter_ids: [1, 2],
  last_seen_at: null,
  revoked_at: null,
  created_at: EXAMPLE.createdAt,
  updated_at: EXAMPLE.createdAt,
};

const gateway = z.strictObject(gatewayFields).meta({ examples: [example] });

const gatewayWithKey = z
  .strictObject({
    ...gatewayFields,
    key: z
      .string()
      .describe(
        'The secret the gateway pushes with (`authorization: Gateway <key>`): shown in this answer only, stored hashed',
      ),
  })
  .meta({ examples: [{ ...example, key: 'ugw_3q2-7wEXAMPLEonlyNotARealKey0000' }] });

export const gatewayResponses = {
  list: listEnvelope(gateway, 'A page of gateways (without their keys)'),
  created: okEnvelope(gatewayWithKey, 'The new gateway and its key, shown this once'),
  rotated: okEnvelope(
    gatewayWithKey,
    'The gateway and its new key, shown this once; the old key opens nothing from now on',
  ),
  gateway: okEnvelope(gateway, 'The gateway'),
};
