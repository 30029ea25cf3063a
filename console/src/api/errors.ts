import type { FailureEnvelope } from './models.ts';

/** A failure answer of the API: the envelope's message, error and code, and the request's id (for a report). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelopeMessage: string | null,
    readonly detail: string,
    readonly code: string | null = null,
    readonly requestId: string | null = null,
  ) {
    super([envelopeMessage, detail].filter(Boolean).join(': ') || `The service answered ${status}`);
    this.name = 'ApiError';
  }
}

/** The request never got an answer (the service is down or the network is gone). */
export class UnreachableError extends Error {
  constructor() {
    super('The service cannot be reached. Check the connection and try again.');
    this.name = 'UnreachableError';
  }
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** The refusal of an answer: its envelope (whatever of it there is) and its x-request-id. */
export function apiErrorOf(response: Pick<Response, 'status' | 'headers'>, body: unknown): ApiError {
  const envelope = (body ?? {}) as Partial<FailureEnvelope>;
  return new ApiError(
    response.status,
    text(envelope.message),
    text(envelope.error) ?? '',
    text(envelope.code),
    response.headers.get('x-request-id'),
  );
}
