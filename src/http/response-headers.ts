/** The headers that answers carry, declared on every response of the API reference that has them. */

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

/** The headers answers carry, declared once in the document's components. */
const HEADERS: Readonly<Record<string, HeaderObject>> = {
  'X-Request-Id': {
    description:
      'The request id, also in the log lines of the request: the `X-Request-Id` the client sent when it is 1 to 128 of `A-Z a-z 0-9 . _ : -`, else a new uuid. Quote it when reporting a failure',
    required: true,
    schema: { type: 'string' },
  },
  'Retry-After': RETRY_AFTER,
  'WWW-Authenticate': {
    description:
      'The bearer challenge (RFC 6750): `Bearer` without a token, `Bearer error="invalid_token", error_description="…"` when the token sent was refused',
    required: true,
    schema: { type: 'string' },
  },
};

/** On every answer the request's id, which its log lines carry too; on some statuses more. */
const HEADERS_OF_STATUS: Readonly<Record<string, readonly string[]>> = {
  '401': ['WWW-Authenticate'],
  '429': ['Retry-After'],
  '503': ['Retry-After'],
};

type Paths = Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>;

/**
 * The document with the headers of each status declared on every response of that status, as
 * references to the document's components (each header is written once).
 */
export function declareResponseHeaders<T extends { paths?: unknown; components?: object }>(document: T): T {
  for (const operations of Object.values((document.paths ?? {}) as Paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const names = ['X-Request-Id', ...(HEADERS_OF_STATUS[status] ?? [])];
        const refs = names.map((name) => [name, { $ref: `#/components/headers/${name}` }]);
        response.headers = { ...response.headers, ...Object.fromEntries(refs) };
      }
    }
  }
  document.components = { ...document.components, headers: HEADERS };
  return document;
}
