import type { FastifySchemaCompiler } from 'fastify';
import type { ZodType } from 'zod';
import { badRequest, formatIssues } from './errors.ts';

const ROOT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/** zod validates params, query and body; a failure becomes 400 `Invalid request body` with `field: message`. */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  const root = ROOT_NAMES[httpPart ?? 'body'] ?? 'body';
  return (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: badRequest(formatIssues(result.error.issues, root)) };
  };
};
