import { expect } from 'vitest';
import { AppError } from '../../src/http/errors.ts';

/** The AppError a promise was rejected with; fails the test when it resolved or failed otherwise. */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}
