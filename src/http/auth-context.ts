/** Who is calling: set by the authentication hook on every protected request. */
export interface AuthContext {
  readonly userId: string;
  readonly email: string;
  readonly sessionId: string;
  /** Fires when the request's deadline passes or its client goes away (admission.ts). */
  readonly signal?: AbortSignal | undefined;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No bearer token needed (login, signup, documents, health). */
    public?: boolean;
    /** The bearer token must be the service-role key (admin endpoints). */
    serviceRole?: boolean;
  }
  interface FastifyRequest {
    auth: AuthContext;
  }
}
