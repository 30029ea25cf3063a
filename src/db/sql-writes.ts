import { SqlParams } from './sql-params.ts';
import type { Executor } from './types.ts';

// Table and column names come from code (allow-lists); values only travel as parameters.

/** The columns of the allow-list that `values` sets (undefined means "leave as is"), each with its placeholder. */
export function columnValues(
  values: Readonly<Record<string, unknown>>,
  columns: readonly string[],
  params: SqlParams,
): { column: string; placeholder: string }[] {
  return columns
    .filter((column) => values[column] !== undefined)
    .map((column) => ({ column, placeholder: params.add(values[column]) }));
}

interface TableSpec {
  table: string;
  writable: readonly string[];
  /** The select list returned. */
  returning: string;
}

/** Inserts an organization's row with only the columns given; absent ones get the column default. */
export async function insertRow<T>(
  db: Executor,
  spec: TableSpec,
  accountId: string,
  values: Readonly<Record<string, unknown>>,
) {
  const params = new SqlParams();
  const set = [
    { column: 'account_id', placeholder: params.add(accountId) },
    ...columnValues(values, spec.writable, params),
  ];
  const [row] = await db.query<T>(
    `INSERT INTO ${spec.table} (${set.map((s) => s.column).join(', ')})
     VALUES (${set.map((s) => s.placeholder).join(', ')}) RETURNING ${spec.returning}`,
    params.values,
  );
  return row!;
}

/** Sets the given columns (and updated_at) of the organization's row id; undefined when there is no such row. */
export async function updateRow<T>(
  db: Executor,
  spec: TableSpec,
  accountId: string,
  id: number,
  values: Readonly<Record<string, unknown>>,
) {
  const params = new SqlParams();
  const set = columnValues(values, spec.writable, params).map((s) => `${s.column} = ${s.placeholder}`);
  const [row] = await db.query<T>(
    `UPDATE ${spec.table} SET ${[...set, 'updated_at = now()'].join(', ')}
     WHERE id = ${params.add(id)} AND account_id = ${params.add(accountId)} RETURNING ${spec.returning}`,
    params.values,
  );
  return row;
}
