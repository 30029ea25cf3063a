import http from 'node:http';
import net from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAdmission } from './admission.ts';
import { registerErrorHandler } from './error-handler.ts';
import { LARGE_BODY_BYTES } from './limits.ts';
import { registerRequestGate } from './request-gate.ts';
import { listEnvelope } from './responses.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/**
 * A server with the gate of one request per user (a user named by the x-user header, as the
 * authentication hook would set it), one page and one large body at a time in the process, and
 * routes that answer once the test lets them: /held/:name (gated; GET, and POST as a write),
 * POST /question/:name (a POST that only reads), /page/:name (a page of a list, whose one item is
 * `?bytes=` long), /own/:name (a route with its own admission) and /public/:name; and POST /body,
 * which answers the body's `n` at once. One write runs at a time in the process.
 */
async function gatedServer(waitMs = 60_000) {
  const gate = createAdmission({ perOrganization: Number.POSITIVE_INFINITY, perUser: 1, waitMs, what: 'requests' });
  const pages = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: Number.POSITIVE_INFINITY,
    total: 1,
    leastUsedFirst: true,
    maxRestMs: 0,
    waitMs,
    what: 'requests',
  });
  const app = Fastify();
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  apps.push(app);
  registerErrorHandler(app);
  app.addHook('onRequest', async (request) => {
    const user = request.headers['x-user'];
    if (typeof user === 'string') request.auth = { userId: user, email: `${user}@example.com`, sessionId: 's' };
  });
  const largeBodies = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: Number.POSITIVE_INFINITY,
    total: 1,
    waitMs,
    what: 'large bodies',
  });
  const writes = createAdmission({
    perOrganization: Number.POSITIVE_INFINITY,
    perUser: Number.POSITIVE_INFINITY,
    total: 1,
    waitMs,
    what: 'writes',
  });
  registerRequestGate(app, { requests: gate, pages, largeBodies, writes });
  const started: string[] = [];
  const releases = new Map<string, () => void>();
  const answer = async (name: string) => {
    started.push(name);
    const release = deferred();
    releases.set(name, release.resolve);
    await release.promise;
    return { success: true, message: null, data: name };
  };
  app.get<{ Params: { name: string } }>('/held/:name', async (req) => answer(req.params.name));
  app.post<{ Params: { name: string } }>('/held/:name', async (req) => answer(req.params.name));
  app.post<{ Params: { name: string } }>('/question/:name', { config: { readsOnly: true } }, async (req) =>
    answer(req.params.name),
  );
  app.get<{ Params: { name: string }; Querystring: { bytes?: string } }>(
    '/page/:name',
    { schema: { response: { 200: listEnvelope(z.string(), 'A page') } } },
    async (req) => {
      await answer(req.params.name);
      return { success: true, message: null, data: ['x'.repeat(Number(req.query.bytes ?? 1))], count: 1 };
    },
  );
  app.post<{ Body: { n: number } }>('/body', async (req) => ({ success: true, message: null, data: req.body.n }));
  app.get<{ Params: { name: string } }>('/own/:name', { config: { ownAdmission: true } }, async (req) =>
    answer(req.params.name),
  );
  app.get<{ Params: { name: string } }>('/public/:name', { config: { public: true } }, async (req) =>
    answer(req.params.name),
  );
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const get = (path: string, user?: string, signal?: AbortSignal, method = 'GET') =>
    fetch(`${base}${path}`, { method, headers: user ? { 'x-user': user } : {}, signal }).then(async (res) => ({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: await res.json(),
    }));
  /** Resolves once the route named has started. */
  const startOf = async (name: string) => {
    while (!releases.has(name)) await new Promise((resolve) => setImmediate(resolve));
  };
  const release = async (name: string) => {
    await startOf(name);
    releases.get(name)!();
  };
  /** Resolves once the gate has this many requests waiting. */
  const waiting = async (count: number) => {
    while (gate.load().waiting !== count) await new Promise((resolve) => setImmediate(resolve));
  };
  /** Resolves once the process has this many pages waiting. */
  const pagesWaiting = async (count: number) => {
    while (pages.load().waiting !== count) await new Promise((resolve) => setImmediate(resolve));
  };
  const post = (path: string, user: string) => get(path, user, undefined, 'POST');
  return { base, get, post, started, startOf, release, waiting, pagesWaiting, gate, pages, largeBodies, writes };
}

describe('the request gate', () => {
  it('lets a user have their slots of requests at once; the next waits its turn while other users go on', async () => {
    const server = await gatedServer();
    const first = server.get('/held/a1', 'a');
    await server.startOf('a1');
    const second = server.get('/held/a2', 'a');
    await server.waiting(1);
    const neighbour = server.get('/held/b1', 'b');
    await server.release('b1');
    expect(await neighbour).toEqual({
      status: 200,
      retryAfter: null,
      body: { success: true, message: null, data: 'b1' },
    });
    expect(server.started).toEqual(['a1', 'b1']);
    await server.release('a1');
    await server.release('a2');
    expect((await first).body.data).toBe('a1');
    expect((await second).body.data).toBe('a2');
    expect(server.started).toEqual(['a1', 'b1', 'a2']);
    expect(server.gate.load()).toEqual({ running: 0, waiting: 0 });
  });

  it.each([
    {
      what: "a request past its user's slots",
      method: 'GET',
      next: '/held/a2',
      nextUser: 'a',
      error: 'requests of yours',
    },
    {
      what: "a write past the process's turns",
      method: 'POST',
      next: '/held/b1',
      nextUser: 'b',
      error: 'writes on this server',
    },
  ])(
    'answers 429 with Retry-After to $what that waited in vain, without running it',
    async ({ method, next, nextUser, error }) => {
      const server = await gatedServer(50);
      const first = server.get('/held/a1', 'a', undefined, method);
      await server.startOf('a1');
      expect(await server.get(next, nextUser, undefined, method)).toEqual({
        status: 429,
        retryAfter: '1',
        body: { success: false, message: 'Too many requests', error: `Too many ${error} at once; retry shortly` },
      });
      await server.release('a1');
      expect((await first).status).toBe(200);
      expect(server.started).toEqual(['a1']);
    },
  );

  it('leaves routes with admissions of their own and public routes to themselves', async () => {
    const server = await gatedServer();
    const first = server.get('/held/a1', 'a');
    await server.startOf('a1');
    const own = server.get('/own/a2', 'a');
    const open = server.get('/public/p1');
    await server.release('a2');
    await server.release('p1');
    expect((await own).body.data).toBe('a2');
    expect((await open).body.data).toBe('p1');
    await server.release('a1');
    expect((await first).status).toBe(200);
  });

  it('takes a waiting request out of the queue when its client goes away, and hands the slot on', async () => {
    const server = await gatedServer();
    const first = server.get('/held/a1', 'a');
    await server.startOf('a1');
    const leaving = new AbortController();
    const gone = server.get('/held/a2', 'a', leaving.signal).catch((error: Error) => error.name);
    await server.waiting(1);
    leaving.abort();
    expect(await gone).toBe('AbortError');
    await server.waiting(0);
    const third = server.get('/held/a3', 'a');
    await server.waiting(1);
    await server.release('a1');
    await server.release('a3');
    expect((await first).status).toBe(200);
    expect((await third).body.data).toBe('a3');
    expect(server.started).toEqual(['a1', 'a3']);
  });

  it("holds a page to the process's slots for pages as well: another user's page waits, their other requests go on", async () => {
    const server = await gatedServer();
    const first = server.get('/page/a1', 'a');
    await server.startOf('a1');
    const page = server.get('/page/b1', 'b');
    await server.pagesWaiting(1);
    const record = server.get('/held/c1', 'c');
    await server.release('c1');
    expect((await record).body.data).toBe('c1');
    expect(server.started).toEqual(['a1', 'c1']);
    await server.release('a1');
    expect(await first).toEqual({
      status: 200,
      retryAfter: null,
      body: { success: true, message: null, data: ['x'], count: 1 },
    });
    await server.release('b1');
    expect((await page).status).toBe(200);
    expect(server.started).toEqual(['a1', 'c1', 'b1']);
    expect(server.pages.load()).toEqual({ running: 0, waiting: 0 });
  });

  it("lets a page's slot go once its answer is written, while its client has not read it", async () => {
    const server = await gatedServer();
    const answered = new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${server.base}/page/a1?bytes=${32 * 1024 * 1024}`, { headers: { 'x-user': 'a' } }, (res) => {
        res.pause();
        resolve(res);
      }),
    );
    await server.release('a1');
    const unread = await answered;
    const next = server.get('/page/b1', 'b');
    await server.release('b1');
    expect((await next).status).toBe(200);
    // a's answer is still on its way: its request slot is held until its connection is done with it.
    expect(server.gate.load()).toEqual({ running: 1, waiting: 0 });
    unread.destroy();
  });

  it("runs writes in turn in the process: another user's write waits until the first is answered, reads go on", async () => {
    const server = await gatedServer();
    const first = server.post('/held/a1', 'a');
    await server.startOf('a1');
    const write = server.post('/held/b1', 'b');
    while (server.writes.load().waiting !== 1) await new Promise((resolve) => setImmediate(resolve));
    const read = server.get('/held/d1', 'd');
    const question = server.post('/question/c1', 'c');
    await server.release('d1');
    await server.release('c1');
    expect(await read).toEqual({ status: 200, retryAfter: null, body: { success: true, message: null, data: 'd1' } });
    expect(await question).toEqual({
      status: 200,
      retryAfter: null,
      body: { success: true, message: null, data: 'c1' },
    });
    expect(server.started).toEqual(['a1', 'd1', 'c1']);
    expect(server.writes.load()).toEqual({ running: 1, waiting: 1 });
    await server.release('a1');
    await server.release('b1');
    expect(await first).toEqual({ status: 200, retryAfter: null, body: { success: true, message: null, data: 'a1' } });
    expect(await write).toEqual({ status: 200, retryAfter: null, body: { success: true, message: null, data: 'b1' } });
    expect(server.started).toEqual(['a1', 'd1', 'c1', 'b1']);
    expect(server.writes.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('hands the next page to the user whose answers were smaller lately', async () => {
    const server = await gatedServer();
    for (const [name, user, bytes] of [
      ['big0', 'big', 200_000],
      ['small0', 'small', 1],
    ] as const) {
      const answer = server.get(`/page/${name}?bytes=${bytes}`, user);
      await server.release(name);
      expect((await answer).status).toBe(200);
    }
    const first = server.get('/page/x1', 'x');
    await server.startOf('x1');
    const big = server.get('/page/big1', 'big');
    const small = server.get('/page/small1', 'small');
    await server.pagesWaiting(2);
    await server.release('x1');
    await server.release('small1');
    await server.release('big1');
    await Promise.all([first, big, small]);
    expect(server.started).toEqual(['big0', 'small0', 'x1', 'small1', 'big1']);
  });

  it("reads a large body in its turn: another user's waits unread until the first is parsed, a small one does not", async () => {
    const server = await gatedServer();
    const large = (n: number) => JSON.stringify({ n, padding: 'x'.repeat(LARGE_BODY_BYTES) });
    // User a's large body arrives in two parts: it holds the turn until its last byte is read and parsed.
    const first = large(1);
    const slow = http.request(`${server.base}/body`, {
      method: 'POST',
      headers: { 'x-user': 'a', 'content-type': 'application/json', 'content-length': Buffer.byteLength(first) },
    });
    const slowAnswer = new Promise<{ status: number; body: string }>((resolve) =>
      slow.on('response', (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      }),
    );
    slow.write(first.slice(0, 1000));
    while (server.largeBodies.load().running !== 1) await new Promise((resolve) => setImmediate(resolve));

    const post = (user: string, body: string) =>
      fetch(`${server.base}/body`, {
        method: 'POST',
        headers: { 'x-user': user, 'content-type': 'application/json' },
        body,
      }).then(async (res) => ({ status: res.status, body: await res.json() }));
    const waitingLarge = post('b', large(2));
    while (server.largeBodies.load().waiting !== 1) await new Promise((resolve) => setImmediate(resolve));
    expect(await post('c', JSON.stringify({ n: 3 }))).toEqual({
      status: 200,
      body: { success: true, message: null, data: 3 },
    });
    expect(server.largeBodies.load()).toEqual({ running: 1, waiting: 1 });

    slow.end(first.slice(1000));
    expect(await slowAnswer).toEqual({ status: 200, body: JSON.stringify({ success: true, message: null, data: 1 }) });
    expect(await waitingLarge).toEqual({ status: 200, body: { success: true, message: null, data: 2 } });
    expect(server.largeBodies.load()).toEqual({ running: 0, waiting: 0 });
  });

  it('closes the connection of a large body refused unread only when reading it after the answer would have no bound', async () => {
    const server = await gatedServer(50);
    const first = JSON.stringify({ n: 1, padding: 'x'.repeat(LARGE_BODY_BYTES) });
    const slow = http.request(`${server.base}/body`, {
      method: 'POST',
      headers: { 'x-user': 'a', 'content-type': 'application/json', 'content-length': Buffer.byteLength(first) },
    });
    const slowAnswer = new Promise<number>((resolve) => slow.on('response', (res) => resolve(res.statusCode!)));
    slow.write(first.slice(0, 1000));
    while (server.largeBodies.load().running !== 1) await new Promise((resolve) => setImmediate(resolve));

    /** Sends a request's head and the start of its body; resolves with what came back once the head and envelope have. */
    const refusedUnread = (user: string, framing: string) =>
      new Promise<{ answer: string; socket: net.Socket }>((resolve) => {
        const { port } = new URL(server.base);
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /body HTTP/1.1\r\nhost: 127.0.0.1\r\nx-user: ${user}\r\ncontent-type: application/json\r\n${framing}\r\n\r\n`,
          );
        });
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk;
          if (/\r\n\r\n\{.*\}$/s.test(answer)) resolve({ answer, socket });
        });
      });
    const declared = await refusedUnread('b', `content-length: ${LARGE_BODY_BYTES * 2}`);
    const chunked = await refusedUnread('c', 'transfer-encoding: chunked');
    for (const { answer } of [declared, chunked]) {
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests');
      expect(JSON.parse(/\r\n\r\n(\{.*\})$/s.exec(answer)![1]!)).toEqual({
        success: false,
        message: 'Too many requests',
        error: 'Too many large bodies on this server at once; retry shortly',
      });
    }
    expect(declared.answer.toLowerCase()).toContain('\r\nconnection: keep-alive\r\n');
    expect(chunked.answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    await new Promise((resolve) => chunked.socket.once('close', resolve));
    declared.socket.destroy();

    slow.end(first.slice(1000));
    expect(await slowAnswer).toBe(200);
  });
});
