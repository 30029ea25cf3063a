import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Admission, ANY_ORGANIZATION } from './admission.ts';
import { badRequest } from './errors.ts';
import { LARGE_BODY_BYTES } from './limits.ts';
import { isListEnvelope } from './responses.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's work has admissions of its own (cost, comparisons, recoveries,
     * invoice checks, readings bodies: a small one takes its user's slot of the gate's admission in
     * the ingest parser): the request gate leaves it to them.
     */
    ownAdmission?: boolean;
    /** A POST that only reads (its body is the question, as energy sums'): not one of the gate's `writes`. */
    readsOnly?: boolean;
  }
}

/** Why a request stops waiting for its turn when its client goes away (no one reads the answer). */
const CLIENT_GONE = badRequest('The client closed the connection before its turn');
/** Why a large body's slot is let go: it is parsed. */
const BODY_PARSED = new Error('The body is parsed');
/** Why a page's or a write's slot is let go: its answer is written (what the client still reads costs the process nothing). */
const ANSWER_WRITTEN = new Error('The answer is written');
/** The methods of requests that change something: each takes a slot of `writes` to run. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** How long a request waits for its turn before its 429, as a share of the request's timeout (the rest is left for the request). */
export const REQUEST_WAIT_SHARE = 0.5;

/**
 * What a page cost its user, for the pages' turns: one for the request, and one for each this many
 * bytes of its answer, which is what the main thread's work on it (rows read, JSON written, bytes
 * sent) grows with: a page of 100 tariffs (about 100 KB) took some 4.6 ms of it, a record some 0.3 ms.
 */
export const PAGE_COST_BYTES = 10_000;

interface Admissions {
  /** Every gated request: its user's slots (REQUESTS_PER_USER). */
  requests: Admission;
  /** Requests for a page of a list, after their user's slot: the process's slots for pages (PAGES_AT_ONCE). */
  pages: Admission;
  /** Large JSON bodies, read and parsed a few at a time in the process, users (or client addresses) in turn. */
  largeBodies: Admission;
  /** Gated requests that change something, once their body is read: a few at a time in the process (WRITES_AT_ONCE), users in turn. */
  writes: Admission;
}

interface PageInFlight {
  written: AbortController;
  bytes: number;
}

/** The large bodies holding a slot of `largeBodies` until they are parsed (or their request is answered). */
const bodiesInTurn = new WeakMap<FastifyRequest, AbortController>();

const hasLargeBody = ({ headers }: FastifyRequest) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > LARGE_BODY_BYTES;

/** The pages holding a slot of `pages` until their answer is written. */
const pagesInFlight = new WeakMap<FastifyRequest, PageInFlight>();
/** The writes holding a slot of `writes` until their answer is written. */
const writesInFlight = new WeakMap<FastifyRequest, AbortController>();

/** Whether the gate takes the request's user's slots: an authenticated route without admissions of its own. */
const isGated = ({ routeOptions: { url, config } }: FastifyRequest) =>
  url !== undefined && !config.public && !config.serviceRole && !config.ownAdmission;

const sizeOf = (payload: unknown) =>
  typeof payload === 'string' ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : 0;

/**
 * Every authenticated request of a user, but those of routes with admissions of their own, takes
 * one of the user's slots of `requests` before anything else is done with it (its body is read
 * after), and holds it until its answer is sent or its connection closes. Past the user's slots it
 * waits, their requests in order of arrival, then answers 429 (the gate's wait). One user's flood of
 * cheap requests (a list page, a record) then has a few of them in the event loop at once, not one
 * per connection, and everyone else's request runs between them.
 *
 * A request for a page of a list (its answer a list envelope) then also takes one of the process's
 * slots of `pages`, held until its answer is written (not until the client has read it): pages cost
 * milliseconds of the main thread each, and many users flooding them would otherwise fill it. Those
 * slots go to the users whose pages cost least lately (the answers' sizes), and a user who would go
 * first starts from their reserve: a neighbour's page does not wait behind the flood's
 * (docs/decisions.md, "Pages of lists a few at a time in the process").
 *
 * A request that changes something (POST, PUT, PATCH, DELETE, but a `readsOnly` route's) takes one
 * of the process's slots of `writes` once its body is valid, held until its answer is written, users
 * in turn (docs/decisions.md, "Writes a few at a time").
 */
export function registerRequestGate(app: FastifyInstance, { requests, pages, largeBodies, writes }: Admissions): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!isGated(request)) return;
    const answered = new AbortController();
    reply.raw.once('close', () => answered.abort(CLIENT_GONE));
    await requests.hold(request.auth, ANY_ORGANIZATION, answered.signal);
    const responses = request.routeOptions.schema?.response as Record<number, unknown> | undefined;
    if (!isListEnvelope(responses?.[200])) return;
    const page: PageInFlight = { written: new AbortController(), bytes: 0 };
    answered.signal.addEventListener('abort', () => page.written.abort(answered.signal.reason), { once: true });
    pagesInFlight.set(request, page);
    await pages.hold(request.auth, ANY_ORGANIZATION, page.written.signal, () => 1 + page.bytes / PAGE_COST_BYTES);
  });
  // A large body waits unread for its turn, then holds it until it is parsed: JSON.parse of 1 MiB
  // holds the event loop some 25 ms, and bodies of many users parsed in one round of the loop
  // would hold it for all of them. Readings bodies have admissions of their own.
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.routeOptions.config.ownAdmission || !hasLargeBody(request)) return payload;
    const parsed = new AbortController();
    reply.raw.once('close', () => parsed.abort(CLIENT_GONE));
    bodiesInTurn.set(request, parsed);
    try {
      await largeBodies.hold({ userId: request.auth?.userId ?? request.ip }, ANY_ORGANIZATION, parsed.signal);
    } catch (error) {
      // Refused unread: a body of a declared length within the route's limit is read and dropped
      // after the answer, its connection kept for the client's next request; any other would be
      // read without a bound, so its connection closes.
      const declared = Number(request.headers['content-length'] ?? Number.NaN);
      if (!(declared <= request.routeOptions.bodyLimit)) reply.header('connection', 'close');
      throw error;
    }
    return payload;
  });
  app.addHook('preValidation', async (request) => {
    bodiesInTurn.get(request)?.abort(BODY_PARSED);
  });
  // A write, once its body is read and valid, waits for one of the process's slots of `writes` and
  // holds it until its answer is written: each holds a database connection for its transaction, and
  // many users' writes at once would hold all of them, every other query waiting for the pool.
  app.addHook('preHandler', async (request, reply) => {
    if (!isGated(request) || request.routeOptions.config.readsOnly || !WRITE_METHODS.has(request.method)) return;
    const written = new AbortController();
    reply.raw.once('close', () => written.abort(CLIENT_GONE));
    writesInFlight.set(request, written);
    await writes.hold(request.auth, ANY_ORGANIZATION, written.signal);
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    writesInFlight.get(request)?.abort(ANSWER_WRITTEN);
    const page = pagesInFlight.get(request);
    if (page) {
      page.bytes = sizeOf(payload);
      page.written.abort(ANSWER_WRITTEN);
    }
    return payload;
  });
}
