import { z } from 'zod';
import type { SortColumns } from '../db/list-page.ts';
import { badRequest } from './errors.ts';
import { integerParam, storable } from './fields.ts';

/** The sortable columns every resource with a table alias shares. */
export function commonSort(alias: string, extra: readonly string[] = []): SortColumns {
  const names = ['created_at', 'updated_at', 'name', 'id', ...extra];
  return Object.fromEntries(names.map((n) => [n, `${alias}.${n}`]));
}

/** page, limit, query, sortBy (one of the sort columns), sortOrder: the parameters of every list. */
export function listQuerySchema(sortColumns: SortColumns) {
  const sortable = Object.keys(sortColumns) as [string, ...string[]];
  return z.object({
    page: integerParam(1, 2_147_483_647).default(1).describe('Page number, from 1 (default 1)'),
    limit: integerParam(1, 100).default(10).describe('Rows per page, 1 to 100 (default 10)'),
    query: storable(z.string().max(200)).optional().describe('Case-insensitive text search'),
    sortBy: z.enum(sortable).default('created_at').describe('Sort column (also accepted as sort_by)'),
    sortOrder: z.enum(['asc', 'desc']).default('desc').describe('Sort direction (also accepted as sort_order)'),
  });
}

/** Other spellings of the list parameters: snake_case, as the rest of the API's fields. */
const SORT_ALIASES = { sort_by: 'sortBy', sort_order: 'sortOrder' } as const;

export type QueryAliases = ReadonlyMap<string, string>;
/** No other spelling used: a query without sort_by or sort_order. */
export const NO_ALIASES: QueryAliases = new Map();

/**
 * The query with sort_by and sort_order read as sortBy and sortOrder, and which names the client
 * used (so that a validation error names the parameter that was sent). Both spellings with
 * different values: 400.
 */
export function resolveSortAliases(query: Record<string, unknown>): {
  query: Record<string, unknown>;
  used: QueryAliases;
} {
  if (query.sort_by === undefined && query.sort_order === undefined) return { query, used: NO_ALIASES };
  const present = Object.entries(SORT_ALIASES).filter(([alias]) => query[alias] !== undefined);
  const resolved = { ...query };
  const used = new Map<string, string>();
  for (const [alias, name] of present) {
    if (resolved[name] !== undefined && String(resolved[name]) !== String(resolved[alias])) {
      throw badRequest(`${alias}: Must equal ${name} when both are given`);
    }
    if (resolved[name] === undefined) used.set(name, alias);
    resolved[name] = resolved[alias];
    delete resolved[alias];
  }
  return { query: resolved, used };
}
