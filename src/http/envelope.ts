import type { ListPage } from '../db/list-page.ts';
import { JsonText } from './serializer.ts';

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
}

export function ok<T>(data: T, message: string | null = null): SuccessEnvelope<T> {
  return { success: true, message, data };
}

/** A page of a list, its rows written as JSON by the database (sent as they are). */
export function okList(page: ListPage, message: string | null = null): SuccessEnvelope<JsonText> {
  return { success: true, message, data: JsonText.of(page.json), count: page.count };
}

export function failure(message: string | null, error: string): FailureEnvelope {
  return { success: false, message, error };
}

/** A whole (unpaginated) list: count is its length. */
export function okAll<T>(rows: T[]): SuccessEnvelope<T[]> {
  return { success: true, message: null, data: rows, count: rows.length };
}
