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

/**
 * The fields of a list's rows in its answer, in order, each an output column of the select: written
 * as the database writes the column in JSON, but `numbers` (numeric columns, written as the double
 * the type parsers read them as) and `instants` (timestamptz columns, written as JavaScript's
 * toISOString writes a Date: UTC, milliseconds, Z).
 */
export interface RowFields {
  names: readonly string[];
  numbers?: readonly string[];
  instants?: readonly string[];
}

interface ListSpec {
  /** Select list, e.g. `t.*`. */
  select: string;
  /** What of each row the answer shows. */
  fields: RowFields;
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

/** A page of a list: its rows as the JSON array of the answer, and the count of matching rows. */
export interface ListPage {
  json: string;
  count: number;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The SQL of a field of row `p` in the answer's JSON. */
function fieldJson(name: string, fields: RowFields): string {
  const column = `p."${name}"`;
  if (fields.numbers?.includes(name)) return `${column}::float8`;
  if (fields.instants?.includes(name)) {
    return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return column;
}

/**
 * One page of rows, written as JSON by the database, and the total count of matching rows, in one
 * round trip. The rows of a page never become objects in this process: the database's other
 * process writes the JSON, and the answer sends it as it comes (docs/decisions.md, "List pages
 * written by the database").
 */
export async function listPage(db: Executor, spec: ListSpec, list: ListParams): Promise<ListPage> {
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
  const direction = list.sortOrder === 'asc' ? 'ASC' : 'DESC';
  const sortColumn = spec.sortColumns[list.sortBy] ?? spec.tiebreak;
  const limit = params.add(list.limit);
  const offset = params.add((list.page - 1) * list.limit);
  const fields = spec.fields.names.map((name) => `${fieldJson(name, spec.fields)} AS "${name}"`).join(', ');
  // Each row's JSON object is the record of a one-row select (row_to_json: compact, in the fields'
  // order); the page's rows carry their sort values, so that the array is joined in the page's order.
  const [page] = await db.query<ListPage>(
    `SELECT (SELECT count(*)::int FROM ${spec.from} ${whereSql}) AS count,
       coalesce((
         SELECT '[' || string_agg(row_to_json((SELECT r FROM (SELECT ${fields}) r))::text, ','
                                  ORDER BY p.list_sort ${direction} NULLS LAST, p.list_tiebreak ${direction}) || ']'
         FROM (SELECT ${sortColumn} AS list_sort, ${spec.tiebreak} AS list_tiebreak, ${spec.select}
               FROM ${spec.from} ${whereSql}
               ORDER BY ${sortColumn} ${direction} NULLS LAST, ${spec.tiebreak} ${direction}
               LIMIT ${limit} OFFSET ${offset}) p
       ), '[]') AS json`,
    params.values,
  );
  return page!;
}
