import type { FastifyInstance } from 'fastify';
import type { Admission } from './admission.ts';
import { badRequest } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's work has admissions of its own (cost, profiles, sums, comparisons, recoveries,
     * invoice checks, readings bodies: a small one takes its user's slot of the gate's admission in
     * the ingest parser): the request gate leaves it to them.
     */
    ownAdmission?: boolean;
  }
}

/** Why a request stops waiting for its turn when its client goes away (no one reads the answer). */
const CLIENT_GONE = badRequest('The client closed the connection before its turn');

/** How long a request waits for its turn before its 429, as a share of the request's timeout (the rest is left for the request). */
export const REQUEST_WAIT_SHARE = 0.5;

/** The one key of the gate's organizations: it limits users, not organizations (small readings bodies take their slots under it too). */
export const ANY_ORGANIZATION = '*';

/**
 * Every authenticated request of a user, but those of routes with admissions of their own, takes
 * one of the user's slots of `gate` before anything else is done with it (its body is read after),
 * and holds it until its answer is sent or its connection closes. Past the user's slots it waits,
 * their requests in order of arrival, then answers 429 (the gate's wait). One user's flood of cheap
 * requests (a list page, a record) then has a few of them in the event loop at once, not one per
 * connection, and everyone else's request runs between them (docs/decisions.md).
 */
export function registerRequestGate(app: FastifyInstance, gate: Admission): void {
  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url || config.public || config.serviceRole || config.ownAdmission) return;
    const answered = new AbortController();
    reply.raw.once('close', () => answered.abort(CLIENT_GONE));
    await gate.hold(request.auth, ANY_ORGANIZATION, answered.signal);
  });
}
