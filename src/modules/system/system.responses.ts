import { z } from 'zod';
import { okEnvelope, publicFailures, type ResponseSchema } from '../../http/responses.ts';

const health: Record<number, ResponseSchema> = {
  200: okEnvelope(z.strictObject({ status: z.literal('ok') }), 'The process is up'),
};

const readiness: Record<number, ResponseSchema> = {
  200: okEnvelope(
    z.strictObject({
      status: z.literal('ready'),
      replica: z
        .strictObject({
          in_use: z.boolean().describe('Whether the expensive reads go to the replica now'),
          lag_ms: z.number().int().describe("How far the replica's replay is behind the primary, in ms"),
          bypassed: z
            .enum(['down', 'lagging'])
            .optional()
            .describe('Why its reads go to the primary: it does not answer, or lags more than REPLICA_MAX_LAG_MS'),
        })
        .optional()
        .describe('The streaming replica (DATABASE_REPLICA_URL), when one is set'),
    }),
    'The database answers',
  ),
  ...publicFailures({ 503: 'The database is unreachable' }),
};

/** The probes answer the envelope too; they stay out of the API reference. */
export const systemResponses = { health, readiness };
