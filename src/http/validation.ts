import type { FastifySchemaCompiler } from 'fastify';
import type { ZodType } from 'zod';
import { badRequest, formatIssues } from './errors.ts';
import { type QueryAliases, resolveSortAliases } from './list.ts';

const ROOT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

const NO_ALIASES: QueryAliases = new Map();

/** The data to validate, and the names the client used for fields it spelled another way (query only). */
function withAliases(data: unknown, httpPart: string | undefined): { data: unknown; used: QueryAliases } {
  if (httpPart !== 'querystring' || typeof data !== 'object' || data === null) return { data, used: NO_ALIASES };
  const { query, used } = resolveSortAliases(data as Record<string, unknown>);
  return { data: query, used };
}

/** zod validates params, query and body; a failure becomes 400 `Invalid request body` with `field: message`. */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  const root = ROOT_NAMES[httpPart ?? 'body'] ?? 'body';
  return (input) => {
    let resolved: ReturnType<typeof withAliases>;
    try {
      resolved = withAliases(input, httpPart);
    } catch (error) {
      return { error: error as Error };
    }
    const result = schema.safeParse(resolved.data);
    if (result.success) return { value: result.data };
    const issues = result.error.issues.map((issue) => {
      const sent = resolved.used.get(String(issue.path[0]));
      return sent === undefined ? issue : { ...issue, path: [sent, ...issue.path.slice(1)] };
    });
    return { error: badRequest(formatIssues(issues, root)) };
  };
};
