import { isPostgresError, PG_ERROR, type PgErrorCode } from '../db/postgres-errors.ts';
import { conflict } from './errors.ts';

/** The work's result, or 409 with this message when the database refuses it with this error code. */
export async function conflictOn<T>(work: Promise<T>, code: PgErrorCode, message: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (isPostgresError(error, code)) throw conflict(message);
    throw error;
  }
}

/** The work's result, or 409 with this message when it breaks a unique constraint. */
export const conflictOnDuplicate = <T>(work: Promise<T>, message: string) =>
  conflictOn(work, PG_ERROR.UNIQUE_VIOLATION, message);
