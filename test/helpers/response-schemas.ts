import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { ZodType } from 'zod';
import { ALL_ERROR_CODES, ERROR_CODES } from '../../src/http/error-codes.ts';
import { formatIssues } from '../../src/http/errors.ts';
import type { App } from '../../src/http/types.ts';

/** Refusals of the HTTP layer that the API reference describes once for every route, not per route. */
const TRANSPORT_STATUSES = new Set([408, 413, 414, 415, 431]);

const mismatches: string[] = [];

/** The answer's JSON: as written, or from the bytes sent (kept answers), decoded by their Content-Encoding. */
function bodyOf(payload: unknown, encoding: unknown): unknown {
  if (Buffer.isBuffer(payload)) {
    const bytes =
      encoding === 'br' ? brotliDecompressSync(payload) : encoding === 'gzip' ? gunzipSync(payload) : payload;
    return JSON.parse(bytes.toString());
  }
  if (typeof payload !== 'string') return payload;
  return payload === '' ? undefined : JSON.parse(payload);
}

/** A status's declared answer: the JSON envelope's schema, or a schema per media type (`content`). */
type Declared = ZodType | { content: Record<string, { schema: ZodType }> };

/** The schema of an answer of the declared status and the reply's content type. */
function schemaOf(declared: Declared | undefined, contentType: unknown): ZodType | undefined {
  if (!declared || !('content' in declared)) return declared;
  return declared.content[String(contentType).split(';')[0]!]?.schema;
}

/** A failure's code, when it is not one the API reference documents for its status: what is wrong with it. */
function codeMismatch(status: number, body: unknown): string | undefined {
  const code = (body as { code?: unknown } | undefined)?.code;
  const documented: readonly string[] = ERROR_CODES[status as keyof typeof ERROR_CODES] ?? ALL_ERROR_CODES;
  return documented.includes(code as string)
    ? undefined
    : `a failure whose code ${String(code)} is not documented for it`;
}

/**
 * Holds every answer of the app to the response schema its route declares for the status: an
 * undeclared status, a body that does not match (unknown keys included: the schemas are strict),
 * a failure without a documented code (routes without a schema too), or a 204 with a body is
 * recorded. `takeMismatches` hands them to the test that made the request.
 */
export function checkResponses(app: App): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const status = reply.statusCode;
    const where = `${request.method} ${request.routeOptions.url ?? request.url} answered ${status}`;
    const declared = request.routeOptions.schema?.response as Record<string, Declared> | undefined;
    if (status >= 400 && String(reply.getHeader('content-type') ?? '').startsWith('application/json')) {
      const wrongCode = codeMismatch(status, bodyOf(payload, reply.getHeader('content-encoding')));
      if (wrongCode) mismatches.push(`${where}, ${wrongCode}`);
    }
    if (!declared) return payload;
    const schema = schemaOf(declared[status], reply.getHeader('content-type'));
    if (!schema) {
      if (!TRANSPORT_STATUSES.has(status)) mismatches.push(`${where}, a status and type its route does not declare`);
      return payload;
    }
    const body =
      'content' in declared[status]! ? String(payload) : bodyOf(payload, reply.getHeader('content-encoding'));
    const result = schema.safeParse(status === 204 ? (body ?? null) : body);
    if (!result.success) {
      const text = typeof payload === 'string' ? payload.slice(0, 2000) : String(payload);
      mismatches.push(`${where}: ${formatIssues(result.error.issues, 'body')}\n  ${text}`);
    }
    return payload;
  });
}

/** The mismatches recorded since the last call. */
export function takeMismatches(): string[] {
  return mismatches.splice(0);
}

export function assertNoMismatches(): void {
  const found = takeMismatches();
  if (found.length > 0) {
    throw new Error(`Answers that do not match their declared response schemas:\n${found.join('\n')}`);
  }
}
