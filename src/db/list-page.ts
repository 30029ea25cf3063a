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

interface ListSpec {
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

/** The column that carries the count of matching rows on each row of a page. */
const TOTAL = 'list_total_count';

interface Page<T> {
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
  const countSql = `SELECT count(*)::int AS count FROM ${spec.from} ${whereSql}`;
  const direction = list.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const sortColumn = spec.sortColumns[list.sortBy] ?? spec.tiebreak;
  const limit = params.add(list.limit);
  const offset = params.add((list.page - 1) * list.limit);
  // The count rides along with the page (one round trip): an uncorrelated subquery, run once.
  const rows = await db.query<T & { [TOTAL]: number }>(
    `SELECT (${countSql}) AS ${TOTAL}, ${spec.select} FROM ${spec.from} ${whereSql}
     ORDER BY ${sortColumn} ${direction} NULLS LAST, ${spec.tiebreak} ${direction}
     LIMIT ${limit} OFFSET ${offset}`,
    params.values,
  );
  if (rows.length > 0) return { rows: rows.map(({ [TOTAL]: _, ...row }) => row as T), count: rows[0]![TOTAL] };
  // No row on this page: none at all on the first, else the count of a page past the end.
  if (list.page === 1) return { rows: [], count: 0 };
  const [total] = await db.query<{ count: number }>(countSql, params.values.slice(0, -2));
  return { rows: [], count: total?.count ?? 0 };
}
