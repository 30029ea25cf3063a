import type { App } from '../../src/http/types.ts';
import { assertNoMismatches } from './response-schemas.ts';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Calls the API as a client would: JSON in, status and parsed JSON out (a CSV answer as its text). */
export async function call<T = any>(
  app: App,
  method: Method,
  url: string,
  options: { token?: string; authorization?: string; body?: unknown; query?: Record<string, unknown> } = {},
): Promise<Reply<T>> {
  const query = options.query
    ? Object.fromEntries(
        Object.entries(options.query)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)]),
      )
    : undefined;
  const response = await app.inject({
    method,
    url,
    query,
    headers: options.token
      ? { authorization: `Bearer ${options.token}` }
      : options.authorization
        ? { authorization: options.authorization }
        : {},
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
  });
  // The request that broke its response schema fails here, where its stack points to.
  assertNoMismatches();
  return {
    status: response.statusCode,
    body: !response.body
      ? (undefined as T)
      : String(response.headers['content-type']).startsWith('text/csv')
        ? (response.body as T)
        : (JSON.parse(response.body) as T),
    headers: response.headers,
  };
}

/** A client bound to one bearer token. */
export function clientFor(app: App, token?: string) {
  return {
    get: <T = any>(url: string, query?: Record<string, unknown>) => call<T>(app, 'GET', url, { token, query }),
    post: <T = any>(url: string, body?: unknown) => call<T>(app, 'POST', url, { token, body }),
    put: <T = any>(url: string, body?: unknown) => call<T>(app, 'PUT', url, { token, body }),
    delete: <T = any>(url: string, query?: Record<string, unknown>) => call<T>(app, 'DELETE', url, { token, query }),
  };
}

export type Client = ReturnType<typeof clientFor>;

/** A client that sends a gateway's key (`authorization: Gateway <key>`) instead of a person's token. */
export function gatewayClientFor(app: App, key: string) {
  const authorization = `Gateway ${key}`;
  return {
    get: <T = any>(url: string, query?: Record<string, unknown>) => call<T>(app, 'GET', url, { authorization, query }),
    post: <T = any>(url: string, body?: unknown) => call<T>(app, 'POST', url, { authorization, body }),
  };
}
