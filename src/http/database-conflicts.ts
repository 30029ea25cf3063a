import { isPostgresError, PG_ERROR, type PgErrorCode } from '../db/postgres-errors.ts';
import type { ErrorCode } from './error-codes.ts';
import { conflict } from './errors.ts';

/** The work's result, or 409 with this message (and code) when the database refuses it with this error code. */
export async function conflictOn<T>(
  work: Promise<T>,
  pgCode: PgErrorCode,
  message: string,
  code: ErrorCode = 'CONFLICT',
): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isPostgresError(error, pgCode)) throw conflict(message, code);
    throw error;
  }
}

/** The work's result, or 409 with this message (and code) when it breaks a unique constraint. */
export const conflictOnDuplicate = <T>(work: Promise<T>, message: string, code?: ErrorCode) =>
  conflictOn(work, PG_ERROR.UNIQUE_VIOLATION, message, code);
