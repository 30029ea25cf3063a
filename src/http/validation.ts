import type { FastifySchemaCompiler } from 'fastify';
import { type ZodType, z } from 'zod';
import { AppError, badRequest, formatIssues, INVALID_QUERY } from './errors.ts';
import { type QueryAliases, resolveSortAliases } from './list.ts';
import type { App } from './types.ts';

const ROOT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

const NO_ALIASES: QueryAliases = new Map();

/** The data to validate, and the names the client used for fields it spelled another way (query only). */
function withAliases(data: unknown, httpPart: string | undefined): { data: unknown; used: QueryAliases } {
  if (httpPart !== 'querystring' || typeof data !== 'object' || data === null) return { data, used: NO_ALIASES };
  const { query, used } = resolveSortAliases(data as Record<string, unknown>);
  return { data: query, used };
}

/** The parameters a query schema names: every query schema is an object of its parameters. */
function parameterNames(schema: ZodType): ReadonlySet<string> {
  if (!(schema instanceof z.ZodObject)) throw new Error('A query schema must be an object of its parameters');
  return new Set(Object.keys(schema.shape));
}

/** 400 `Invalid query` naming each parameter the route does not know, as the client spelled it. */
function unknownParameters(data: unknown, known: ReadonlySet<string>, used: QueryAliases): AppError | undefined {
  const unknown = Object.keys(data as object).filter((name) => !known.has(name));
  if (unknown.length === 0) return undefined;
  const errors = unknown.map((name) => `${used.get(name) ?? name}: Unrecognized parameter`);
  return new AppError(400, INVALID_QUERY, errors.join('; '));
}

/**
 * zod validates params, query and body; a failure becomes 400 `Invalid request body` with
 * `field: message`. A query parameter the route does not name is 400 `Invalid query`.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  const root = ROOT_NAMES[httpPart ?? 'body'] ?? 'body';
  const known = httpPart === 'querystring' ? parameterNames(schema) : undefined;
  return (input) => {
    let resolved: ReturnType<typeof withAliases>;
    try {
      resolved = withAliases(input, httpPart);
    } catch (error) {
      return { error: error as Error };
    }
    const unknown = known && unknownParameters(resolved.data, known, resolved.used);
    if (unknown) return { error: unknown };
    const result = schema.safeParse(resolved.data);
    if (result.success) return { value: result.data };
    const issues = result.error.issues.map((issue) => {
      const sent = resolved.used.get(String(issue.path[0]));
      return sent === undefined ? issue : { ...issue, path: [sent, ...issue.path.slice(1)] };
    });
    return { error: badRequest(formatIssues(issues, root)) };
  };
};

const NO_PARAMETERS = z.object({});

/** Every route of the API reads its query strictly: one that declares no query parameters refuses any. */
export function registerStrictQueries(app: App): void {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.schema?.querystring === undefined) {
      route.schema = { ...route.schema, querystring: NO_PARAMETERS };
    }
  });
}
