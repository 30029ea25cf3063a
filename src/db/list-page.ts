import type { SqlParams } from './sql-params.ts';
import type { Executor } from './types.ts';

/** Maps each sortBy value a list accepts to its SQL column: the allow-list of sortable fields. */
export type SortColumns = Readonly<Record<string, string>>;

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
