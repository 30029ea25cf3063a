import type { AddressInfo } from 'node:net';
import Fastify, { errorCodes } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_REQUIRED, failure, invalid, invalidPath } from '../../test/helpers/envelopes.ts';
import { rawRequest } from '../../test/helpers/raw-http.ts';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.ts';
import { loadConfig } from '../config.ts';
import { registerErrorHandler } from './error-handler.ts';

const ORIGIN = 'https://console.example';
const URI_TOO_LONG = failure('URI too long', 'The URL is longer than 8192 bytes');
const HEADERS_TOO_LARGE = failure('Request header fields too large', 'The request headers are larger than 16384 bytes');

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await startTestApp({ REQUEST_TIMEOUT_S: '1', CORS_ORIGINS: ORIGIN });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => t.close());

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`;

// Each of these waits for the request timeout on its own socket: they wait together.
describe.concurrent('a body that does not arrive in time', () => {
  it('answers 408 in the envelope and closes the socket', async () => {
    const request = head([
      'POST /api/v1/auth/login HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Content-Length: 100',
    ]);
    const res = await rawRequest(port, `${request}{"email":`);
    expect(res.closed).toBe(true);
    expect(res.status).toBe(408);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toEqual(failure('Request timeout', 'The request was not received within 1 s'));
  });

  it('answers 408 as well when the headers never end', async () => {
    const res = await rawRequest(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1');
    expect(res.closed).toBe(true);
    expect(res.status).toBe(408);
    expect(JSON.parse(res.body)).toEqual(failure('Request timeout', 'The request was not received within 1 s'));
  });

  it('closes without a second answer when the request was answered before its body came', async () => {
    const request = head([
      'POST /api/v1/organizations HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'Content-Length: 100',
    ]);
    const res = await rawRequest(port, `${request}{"name":`);
    expect(res.closed).toBe(true);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toEqual(AUTH_REQUIRED);
  });

  it('is configured by REQUEST_TIMEOUT_S: 30 s unless set, whole seconds from 1', () => {
    expect(loadConfig({}).requestTimeoutS).toBe(30);
    expect(loadConfig({ REQUEST_TIMEOUT_S: '5' }).requestTimeoutS).toBe(5);
    for (const bad of ['0', '-1', '1.5', 'soon']) {
      expect(() => loadConfig({ REQUEST_TIMEOUT_S: bad }), bad).toThrow(/^Invalid configuration: REQUEST_TIMEOUT_S: /);
    }
  });
});

describe('URLs the router refuses', () => {
  it('answers 400 for bad percent-encoding in the path, without echoing it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/meters/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidPath('path: Invalid percent-encoding'));
  });

  it('answers 400 for an over-long path parameter, without echoing it', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/meters/${'7'.repeat(101)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalidPath('path: A path parameter is longer than 100 characters'));
  });

  it('answers 414 for a URL longer than 8 KiB: a long query, a long path, a long parameter', async () => {
    for (const url of [
      `/healthz?q=${'a'.repeat(8192)}`,
      `/api/v1/${'a'.repeat(8192)}`,
      `/api/v1/meters/${'7'.repeat(8192)}`,
      `/api/v1/meters/${'%E0'.repeat(3000)}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url.slice(0, 20)).toBe(414);
      expect(res.json()).toEqual(URI_TOO_LONG);
    }
  });

  it('accepts a URL of exactly 8 KiB', async () => {
    const path = '/healthz?q=';
    const res = await t.app.inject({ method: 'GET', url: `${path}${'a'.repeat(8192 - path.length)}` });
    expect(res.statusCode).toBe(200);
  });

  it('answers 414 on a socket for a request line longer than the whole header limit', async () => {
    const res = await rawRequest(
      port,
      head([`GET /api/v1/meters?q=${'a'.repeat(100_000)} HTTP/1.1`, 'Host: 127.0.0.1']),
    );
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toEqual(URI_TOO_LONG);
    expect(res.closed).toBe(true);
  });
});

describe('requests the HTTP parser refuses', () => {
  it('answers 431 for one huge header', async () => {
    const res = await rawRequest(
      port,
      head(['GET /healthz HTTP/1.1', 'Host: 127.0.0.1', `X-Big: ${'b'.repeat(100_000)}`]),
    );
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual(HEADERS_TOO_LARGE);
    expect(res.closed).toBe(true);
  });

  it('answers 431 for many headers that together pass the limit', async () => {
    const many = Array.from({ length: 40 }, (_, i) => `X-H${i}: ${'c'.repeat(500)}`);
    const res = await rawRequest(port, head(['GET /healthz HTTP/1.1', 'Host: 127.0.0.1', ...many]));
    expect(res.status).toBe(431);
    expect(JSON.parse(res.body)).toEqual(HEADERS_TOO_LARGE);
  });

  it('answers 400 for a request that is not HTTP', async () => {
    const res = await rawRequest(port, 'HELLO THERE\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(failure('Bad request', 'The request is not valid HTTP'));
    expect(res.closed).toBe(true);
  });

  it('keeps serving normal requests on a real socket', async () => {
    const res = await rawRequest(port, head(['GET /healthz HTTP/1.1', 'Host: 127.0.0.1', 'Connection: close']));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ success: true, message: null, data: { status: 'ok' } });
  });
});

describe('CORS preflight', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE'])(
    'allows %s with the authorization and content-type headers',
    async (method) => {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/meters/12',
        headers: {
          origin: ORIGIN,
          'access-control-request-method': method,
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
      expect(res.headers['access-control-allow-headers']).toBe('authorization, content-type, x-request-id');
    },
  );

  it('answers an OPTIONS request that is not a preflight with a 400 envelope', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: '/api/v1/meters/12' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      invalid('headers: A preflight request needs the Origin and Access-Control-Request-Method headers'),
    );
  });

  it('answers OPTIONS with a 404 envelope when CORS is off', async () => {
    const plain = await startTestApp();
    try {
      const res = await plain.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/meters/12',
        headers: { origin: ORIGIN, 'access-control-request-method': 'DELETE' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(failure('Not found', 'Route OPTIONS /api/v1/meters/12 not found'));
    } finally {
      await plain.close();
    }
  });
});

describe('errors of the framework', () => {
  const cases: [string, Error, number, ReturnType<typeof failure>][] = [
    ['a bad URL', new errorCodes.FST_ERR_BAD_URL('/secret/%E0'), 400, invalidPath('path: Invalid percent-encoding')],
    [
      'an over-long parameter',
      new errorCodes.FST_ERR_MAX_PARAM_LENGTH('/secret/aaaa'),
      400,
      invalidPath('path: A path parameter is longer than 100 characters'),
    ],
    [
      'a failed async constraint',
      new errorCodes.FST_ERR_ASYNC_CONSTRAINT(),
      500,
      failure('Internal server error', 'Internal server error'),
    ],
    ['an invalid URL', new errorCodes.FST_ERR_INVALID_URL('/secret'), 400, invalidPath('path: Invalid URL')],
    [
      'a handler timeout',
      new errorCodes.FST_ERR_HANDLER_TIMEOUT(10, '/secret'),
      503,
      failure('Service unavailable', 'The request took too long'),
    ],
  ];

  it('maps a body the client aborted to 400, not to an unavailable database', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/aborted', async () => {
      // What Fastify passes on when the socket closes while it reads a body.
      throw Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    });
    const res = await app.inject({ method: 'GET', url: '/aborted' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(invalid('body: The request body was not received completely'));
    await app.close();
  });

  it.each(cases)('maps %s to the envelope without echoing the URL', async (_case, error, status, envelope) => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom', async () => {
      throw error;
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(envelope);
    await app.close();
  });
});
