import { z } from 'zod';
import { okEnvelope, publicFailures, type ResponseSchema } from '../../http/responses.ts';

const health: Record<number, ResponseSchema> = {
  200: okEnvelope(z.strictObject({ status: z.literal('ok') }), 'The process is up'),
};

const readiness: Record<number, ResponseSchema> = {
  200: okEnvelope(z.strictObject({ status: z.literal('ready') }), 'The database answers'),
  ...publicFailures({ 503: 'The database is unreachable' }),
};

/** The probes answer the envelope too; they stay out of the API reference. */
export const systemResponses = { health, readiness };
