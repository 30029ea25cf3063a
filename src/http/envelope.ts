import type { ErrorCode } from './error-codes.ts';

interface SuccessEnvelope<T> {
  success: true;
  message: string | null;
  data: T;
  count?: number;
}

interface FailureEnvelope {
  success: false;
  message: string | null;
  error: string;
  code: ErrorCode;
}

export function ok<T>(data: T, message: string | null = null): SuccessEnvelope<T> {
  return { success: true, message, data };
}

export function okList<T>(page: { rows: T[]; count: number }, message: string | null = null): SuccessEnvelope<T[]> {
  return { success: true, message, data: page.rows, count: page.count };
}

export function failure(code: ErrorCode, message: string | null, error: string): FailureEnvelope {
  return { success: false, message, error, code };
}

/** A whole (unpaginated) list: count is its length. */
export function okAll<T>(rows: T[]): SuccessEnvelope<T[]> {
  return okList({ rows, count: rows.length });
}
