import { z } from 'zod';
import type { Executor } from '../db/types.ts';
import { integerParam } from './fields.ts';

/** Collects values for a parameterized query: add() returns the placeholder ($1, $2, ...). */
export class SqlParams {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Maps each sortBy value a list accepts to its SQL column: the allow-list of sortable fields. */
export type SortColumns = Readonly<Record<string, string>>;

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

export interface ListParams {
  page: number;
  limit: number;
  query?: string | undefined;
  sortBy: string;
  sortOrder: 'asc' | 'desc';
}

export interface ListSpec {
  /** Select list, e.g. `t.*`. */
  select: string;
  /** FROM clause (table and joins); written in code, never from input. */
  from: string;
  /** WHERE conditions, joined with AND, whose values are placeholders from `params`. */
  where: string[];
  params: SqlParams;
  /** Columns searched with `query`; fuzzy adds trigram similarity. */
  search: { columns: string[]; fuzzy?: boolean };
  sortColumns: SortColumns;
  /** Unique column that orders rows with equal sort values, so pages never overlap. */
  tiebreak: string;
}

export interface Page<T> {
  rows: T[];
  count: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** One page of rows and the total count of matching rows. */
export async function listPage<T>(db: Executor, spec: ListSpec, list: ListParams): Promise<Page<T>> {
  const where = [...spec.where];
  const { params } = spec;
  if (list.query) {
    const pattern = params.add(`%${escapeLike(list.query)}%`);
    const matches = spec.search.columns.map((c) => `${c} ILIKE ${pattern}`);
    if (spec.search.fuzzy) {
      const text = params.add(list.query);
      matches.push(...spec.search.columns.map((c) => `word_similarity(${text}, coalesce(${c}, '')) >= 0.5`));
    }
    where.push(`(${matches.join(' OR ')})`);
  }
  const whereSql = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [total] = await db.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM ${spec.from} ${whereSql}`,
    params.values,
  );
  const direction = list.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const sortColumn = spec.sortColumns[list.sortBy] ?? spec.tiebreak;
  const limit = params.add(list.limit);
  const offset = params.add((list.page - 1) * list.limit);
  const rows = await db.query<T>(
    `SELECT ${spec.select} FROM ${spec.from} ${whereSql}
     ORDER BY ${sortColumn} ${direction} NULLS LAST, ${spec.tiebreak} ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  return { rows, count: total?.count ?? 0 };
}
