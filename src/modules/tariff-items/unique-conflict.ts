import { conflict } from '../../http/errors.ts';

const UNIQUE_VIOLATION = '23505';

/** The work's result, or 409 with this message when it breaks a unique constraint. */
export async function conflictOnDuplicate<T>(work: Promise<T>, message: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw conflict(message);
    throw error;
  }
}
