/** The headers that failures carry, declared on every response of the API reference that has them. */

interface HeaderObject {
  description: string;
  required: boolean;
  schema: { type: string; minimum?: number };
}

/** Seconds a client waits before asking again, on every 503 (that gives none of its own). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

const RETRY_AFTER: HeaderObject = {
  description: 'Seconds to wait before asking again',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};

const HEADERS_OF_STATUS: Readonly<Record<string, Record<string, HeaderObject>>> = {
  '401': {
    'WWW-Authenticate': {
      description:
        'The bearer challenge (RFC 6750): `Bearer` without a token, `Bearer error="invalid_token", error_description="…"` when the token sent was refused',
      required: true,
      schema: { type: 'string' },
    },
  },
  '429': { 'Retry-After': RETRY_AFTER },
  '503': { 'Retry-After': RETRY_AFTER },
};

type Paths = Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>;

/** The document with the headers of each status declared on every response of that status. */
export function declareResponseHeaders<T extends { paths?: unknown }>(document: T): T {
  for (const operations of Object.values((document.paths ?? {}) as Paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers = HEADERS_OF_STATUS[status];
        if (headers) response.headers = { ...response.headers, ...headers };
      }
    }
  }
  return document;
}
