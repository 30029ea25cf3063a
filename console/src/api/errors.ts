import type { FailureEnvelope } from './models.ts';

/** A failure answer of the API, with the envelope's message and error. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly envelopeMessage: string | null,
    readonly detail: string,
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

export function apiErrorOf(status: number, body: unknown): ApiError {
  const envelope = (body ?? {}) as Partial<FailureEnvelope>;
  return new ApiError(
    status,
    typeof envelope.message === 'string' ? envelope.message : null,
    typeof envelope.error === 'string' ? envelope.error : '',
  );
}
