import type { FastifyReply } from 'fastify';
import { badRequest } from './errors.ts';

/** Why work for a request stops once its client has gone: a 400 that nobody reads. */
const GONE = badRequest('The client closed the connection before the answer');

/**
 * A signal that fires when the request's connection closes. Before the answer is sent, that means
 * its client went away: what the request still waits for (its turn, the next step of its work) is
 * work for nobody (Admission.admit's `abandoned`).
 */
export function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => gone.abort(GONE));
  return gone.signal;
}
