import { randomUUID } from 'node:crypto';
import { type Server, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyHttpOptions, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { failure } from './envelope.ts';
import type { ErrorCode } from './error-codes.ts';
import { sendFailure } from './error-handler.ts';
import { uriTooLong } from './errors.ts';
import { MAX_HEADER_BYTES, MAX_PARAM_LENGTH, MAX_URL_BYTES } from './limits.ts';

interface ClientError extends Error {
  code?: string;
  /** The chunk the HTTP parser was reading when it failed (Node's `clientError` event). */
  rawPacket?: unknown;
}

const urlTooLong = (url: string | undefined) => (url?.length ?? 0) > MAX_URL_BYTES;

/**
 * Whether the request line alone passes the URL limit, when the header limit was hit. Node reports
 * one error for both; the packet that overflowed starts with the request line when the client
 * sent the head in one piece (the common case), otherwise the answer is 431.
 */
function requestLineTooLong(packet: unknown): boolean {
  if (!Buffer.isBuffer(packet)) return false;
  const text = packet.subarray(0, MAX_URL_BYTES + 64).toString('latin1');
  const method = /^[A-Z]+ /.exec(text);
  if (!method) return false;
  const lineEnd = text.indexOf('\r\n');
  if (lineEnd < 0) return true;
  return text.slice(method[0].length, lineEnd).replace(/ HTTP\/\d\.\d$/, '').length > MAX_URL_BYTES;
}

function clientErrorAnswer(
  error: ClientError,
  requestTimeoutS: number,
): { status: number; code: ErrorCode; message: string; detail: string } {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      code: 'REQUEST_TIMEOUT',
      message: 'Request timeout',
      detail: `The request was not received within ${requestTimeoutS} s`,
    };
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return requestLineTooLong(error.rawPacket)
      ? {
          status: 414,
          code: 'URI_TOO_LONG',
          message: 'URI too long',
          detail: `The URL is longer than ${MAX_URL_BYTES} bytes`,
        }
      : {
          status: 431,
          code: 'HEADERS_TOO_LARGE',
          message: 'Request header fields too large',
          detail: `The request headers are larger than ${MAX_HEADER_BYTES} bytes`,
        };
  }
  return { status: 400, code: 'VALIDATION_FAILED', message: 'Bad request', detail: 'The request is not valid HTTP' };
}

/**
 * Answers what Node's HTTP parser refuses (or a request that did not arrive in time) with the
 * envelope, then closes the socket. Nothing of the request is echoed or logged: it may hold a token.
 */
function clientErrorHandler(requestTimeoutS: number) {
  return function onClientError(this: FastifyInstance, error: ClientError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer = clientErrorAnswer(error, requestTimeoutS);
    const requestId = randomUUID();
    this.log.debug({ code: error.code, status: answer.status, reqId: requestId }, 'client error');
    // A request answered (or being answered) on this socket gets no second answer.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent && !answeredBeforeBody.has(socket)) {
      const body = JSON.stringify(failure(answer.code, answer.message, answer.detail));
      socket.write(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
          'Content-Type: application/json; charset=utf-8\r\n' +
          `X-Request-Id: ${requestId}\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          'Connection: close\r\n\r\n' +
          body,
      );
    }
    socket.destroy();
  };
}

/** The router's refusals (bad percent-encoding, over-long parameter): they never reach the hooks. */
function frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  sendFailure(urlTooLong(request.raw.url) ? uriTooLong(MAX_URL_BYTES) : error, request, reply);
}

/** Fastify options that bound what a client may send and keep every refusal in the envelope. */
export function transportOptions(requestTimeoutS: number): FastifyHttpOptions<Server> {
  const requestTimeout = requestTimeoutS * 1000;
  return {
    requestTimeout,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    http: {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout,
      headersTimeout: requestTimeout,
      // How often Node looks for requests past their time (its default of 30 s would let a
      // request live up to twice its timeout).
      connectionsCheckingInterval: Math.min(1000, requestTimeout),
    },
    clientErrorHandler: clientErrorHandler(requestTimeoutS),
    frameworkErrors,
  };
}

/**
 * Sockets whose current request was answered before its body arrived (401, 429, 413...): when that
 * body then runs out of time, the socket is closed without a second, unsolicited answer.
 */
const answeredBeforeBody = new WeakSet<Socket>();

/**
 * 414 for a URL past the limit, before any other hook (authentication, CORS) looks at the request;
 * and notes the requests answered before their body arrived.
 */
export function registerTransportHooks(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    done(urlTooLong(request.raw.url) ? uriTooLong(MAX_URL_BYTES) : undefined);
  });
  app.addHook('onResponse', (request, _reply, done) => {
    const { raw } = request;
    if (!raw.complete) {
      answeredBeforeBody.add(raw.socket);
      raw.once('end', () => answeredBeforeBody.delete(raw.socket));
    }
    done();
  });
}
