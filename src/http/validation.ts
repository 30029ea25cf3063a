import type { FastifySchemaCompiler } from 'fastify';
import { type ZodType, z } from 'zod';
import { AppError, formatIssues, INVALID_PATH, INVALID_QUERY, INVALID_REQUEST } from './errors.ts';
import { NO_ALIASES, type QueryAliases, resolveSortAliases } from './list.ts';
import type { App } from './types.ts';

const ROOT_NAMES: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

/** The envelope's message of a refused part of the request: the query and the path say so, the rest is the body's. */
const MESSAGES: Record<string, string> = { querystring: INVALID_QUERY, params: INVALID_PATH };

const invalidPart = (httpPart: string | undefined, detail: string) =>
  new AppError(400, MESSAGES[httpPart ?? 'body'] ?? INVALID_REQUEST, detail);

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
  return invalidPart('querystring', errors.join('; '));
}

/**
 * zod validates params, query and body; a failure becomes 400 with `field: message`: `Invalid
 * query` for the query (a parameter the route does not name too), `Invalid path` for the path's
 * parameters, `Invalid request body` for the body.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  const root = ROOT_NAMES[httpPart ?? 'body'] ?? 'body';
  const known = httpPart === 'querystring' ? parameterNames(schema) : undefined;
  return (input) => {
    let resolved: ReturnType<typeof withAliases>;
    try {
      resolved = withAliases(input, httpPart);
    } catch (error) {
      return { error: error instanceof AppError ? invalidPart(httpPart, error.detail) : (error as Error) };
    }
    const unknown = known && unknownParameters(resolved.data, known, resolved.used);
    if (unknown) return { error: unknown };
    const result = schema.safeParse(resolved.data);
    if (result.success) return { value: result.data };
    const issues = result.error.issues.map((issue) => {
      const sent = resolved.used.get(String(issue.path[0]));
      return sent === undefined ? issue : { ...issue, path: [sent, ...issue.path.slice(1)] };
    });
    return { error: invalidPart(httpPart, formatIssues(issues, root)) };
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
