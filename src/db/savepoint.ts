import { isPostgresError, PG_ERROR } from './postgres-errors.ts';
import type { Executor } from './types.ts';

/**
 * Runs write inside a savepoint of the caller's transaction and tells whether it succeeded; when
 * it hits a unique violation, its effects are undone and false is returned, leaving the
 * transaction usable. Any other failure is thrown.
 */
export async function unlessDuplicate(tx: Executor, write: () => Promise<unknown>): Promise<boolean> {
  await tx.query('SAVEPOINT unless_duplicate');
  try {
    await write();
  } catch (error) {
    if (!isPostgresError(error, PG_ERROR.UNIQUE_VIOLATION)) throw error;
    await tx.query('ROLLBACK TO SAVEPOINT unless_duplicate');
    return false;
  }
  await tx.query('RELEASE SAVEPOINT unless_duplicate');
  return true;
}
