import { z } from 'zod';
import type { SortColumns } from '../db/list-page.ts';
import { integerParam } from './fields.ts';

/** The sortable columns every resource with a table alias shares. */
export function commonSort(alias: string, extra: readonly string[] = []): SortColumns {
  const names = ['created_at', 'updated_at', 'name', 'id', ...extra];
  return Object.fromEntries(names.map((n) => [n, `${alias}.${n}`]));
}

/** page, limit, query, sortBy (one of the sort columns), sortOrder: the parameters of every list. */
export function listQuerySchema(sortColumns: SortColumns) {
  const sortable = Object.keys(sortColumns) as [string, ...string[]];
  return z.object({
    page: integerParam(1, 2_147_483_647).default(1).describe('Page number, from 1'),
    limit: integerParam(1, 100).default(10).describe('Rows per page, 1 to 100'),
    query: z
      .string()
      .max(200)
      .refine((q) => !q.includes('\u0000'), 'Must not contain NUL characters')
      .optional()
      .describe('Case-insensitive text search'),
    sortBy: z.enum(sortable).default('created_at').describe('Sort column'),
    sortOrder: z.enum(['asc', 'desc']).default('desc'),
  });
}
