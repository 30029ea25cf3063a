/** A gateway (a data logger on site) whose key a request carries, as it stood when the key was checked. */
export interface GatewayCaller {
  readonly id: number;
  readonly accountId: string;
  /** The meters wired to it: the only ones whose readings it may push. */
  readonly meterIds: readonly number[];
  /** The SHA-256 of its key, in hex: a rotation changes it. */
  readonly keyHash: string;
}

/** Who is calling: set by the authentication hook on every protected request. */
export interface AuthContext {
  readonly userId: string;
  readonly email: string;
  readonly sessionId: string;
  /** Fires when the request's deadline passes or its client goes away (admission.ts). */
  readonly signal?: AbortSignal | undefined;
  /** Set when the caller is a gateway's key (`authorization: Gateway <key>`), not a person. */
  readonly gateway?: GatewayCaller;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer token needed (login, signup, documents, health). */
    public?: boolean;
    /** The bearer token must be the service-role key (admin endpoints). */
    serviceRole?: boolean;
    /** A gateway's key (`authorization: Gateway <key>`) is accepted besides a person's token (the readings routes). */
    gatewayKeys?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}
