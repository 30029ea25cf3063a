import { isPostgresError, PG_ERROR } from './postgres-errors.ts';

/** How long a client should wait before retrying, by what ran out. */
const RETRY_AFTER_S = { pool: 1, statement: 5 } as const;

const POOL_TIMEOUT_MESSAGE = 'timeout exceeded when trying to connect';

/**
 * The database could not take the work in time: no pooled connection became free, or a statement
 * ran past the statement timeout. A sign of load, not of a broken request: the client may retry
 * after retryAfterS seconds.
 */
export class DatabaseBusyError extends Error {
  constructor(
    readonly detail: string,
    readonly retryAfterS: number,
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = 'DatabaseBusyError';
  }
}

/** error as a DatabaseBusyError when it says the pool or the statement timeout ran out; else error itself. */
export function busyOr(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error.message === POOL_TIMEOUT_MESSAGE) {
    return new DatabaseBusyError('No database connection became free in time; retry shortly', RETRY_AFTER_S.pool, {
      cause: error,
    });
  }
  if (isPostgresError(error, PG_ERROR.QUERY_CANCELED)) {
    return new DatabaseBusyError('A database statement ran past its time limit; retry later', RETRY_AFTER_S.statement, {
      cause: error,
    });
  }
  return error;
}
