import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admissionGauge } from '../../../../test/helpers/admission-gauges.ts';
import { failure } from '../../../../test/helpers/envelopes.ts';
import { createOrganization, registerUser, type TestUser } from '../../../../test/helpers/factories.ts';
import { startTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { IN_THREAD_MAX_BYTES, LARGE_BODIES_PER_USER } from './ingest-parser.ts';

const READINGS = '/api/v1/timeseries/electricity/readings';
const TOO_MANY_OF_YOURS = failure('Too many requests', 'Too many expensive requests of yours at once; retry shortly');

/**
 * Large readings bodies on their way in, over a real socket: a body declared large whose bytes have
 * not all come counts against its user until its request ends.
 */
describe('large readings bodies on their way in', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let port: number;
  beforeAll(async () => {
    // A large body waits for a slot half of the request's timeout: 5 s, and the bodies held half
    // sent run out of time 5 s after the others are refused, a margin for a loaded machine.
    t = await startTestApp({ REQUEST_TIMEOUT_S: '10' });
    owner = await registerUser(t.app, 'large-bodies');
    other = await registerUser(t.app, 'large-bodies-other');
    await createOrganization(owner);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(async () => t.close());

  /** A request for a large body of `length` bytes whose headers and first bytes are sent, the rest never. */
  async function halfSent(user: TestUser, length = IN_THREAD_MAX_BYTES + 1): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        `POST ${READINGS} HTTP/1.1`,
        'host: 127.0.0.1',
        `authorization: Bearer ${user.token}`,
        'content-type: application/json',
        `content-length: ${length}`,
        '',
        '{"readings":[',
      ].join('\r\n'),
    );
    return socket;
  }

  const largeBody = (user: TestUser) =>
    fetch(`http://127.0.0.1:${port}${READINGS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: `{"padding":"${' '.repeat(IN_THREAD_MAX_BYTES)}"}`,
    }).then(async (res) => ({
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: await res.json(),
    }));

  /** What the server has sent on the socket so far, once it holds `until`. */
  async function received(socket: Socket, until: RegExp): Promise<string> {
    let answer = '';
    const done = new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk) => {
        answer += chunk;
        if (until.test(answer)) resolve();
      });
      socket.once('close', () => reject(new Error(`closed after: ${answer}`)));
    });
    await done;
    return answer;
  }

  /** Large bodies the server counts on their way in, or waiting to be read (its gauge). */
  async function largeBodiesCounted(state: 'running' | 'waiting' = 'running'): Promise<number> {
    return admissionGauge(t.app, 'ums_ingest_large_bodies', state);
  }

  const whenCounted = async (count: number, state: 'running' | 'waiting' = 'running') => {
    while ((await largeBodiesCounted(state)) !== count) await new Promise((resolve) => setImmediate(resolve));
  };

  /** The owner's large bodies, half sent, once the server has read their headers and counted them. */
  async function halfSentCounted(): Promise<Socket[]> {
    const sockets: Socket[] = [];
    for (let i = 0; i < LARGE_BODIES_PER_USER; i++) {
      sockets.push(await halfSent(owner));
      await whenCounted(i + 1);
    }
    return sockets;
  }

  it('refuses a user’s large body before reading it while two of theirs are on their way in, and takes it once they end', async () => {
    const sockets = await halfSentCounted();
    // Three more of the owner's, at once (each waits for a slot, then is refused; the two held
    // ones run out of time only at twice that wait):
    // - sent whole by fetch;
    // - half sent: its body is read and dropped after the refusal, and the next request on the
    //   same connection is answered (a client that opened another connection for each refusal
    //   would open more and more);
    // - declared larger than the endpoint takes, which would be read without a bound: refused
    //   with its connection closed.
    const socket = await halfSent(owner);
    const tooLarge = await halfSent(owner, 17 * 1024 * 1024);
    let tooLargeAnswer = '';
    tooLarge.on('data', (chunk) => {
      tooLargeAnswer += chunk;
    });
    const [whole, refusal] = await Promise.all([
      largeBody(owner),
      received(socket, /\r\n\r\n\{.*\}$/s),
      new Promise((resolve) => tooLarge.once('close', resolve)),
    ]);
    expect(whole).toEqual({ status: 429, retryAfter: '1', body: TOO_MANY_OF_YOURS });
    expect(refusal.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests');
    expect(refusal.toLowerCase()).toContain('\r\nconnection: keep-alive\r\n');
    expect(refusal).toMatch(/\r\n\r\n(\{.*\})$/s);
    expect(JSON.parse(/\r\n\r\n(\{.*\})$/s.exec(refusal)![1]!)).toEqual(TOO_MANY_OF_YOURS);
    socket.write(' '.repeat(IN_THREAD_MAX_BYTES + 1 - '{"readings":['.length));
    socket.write(
      [
        `GET /api/v1/auth/organizations HTTP/1.1`,
        'host: 127.0.0.1',
        `authorization: Bearer ${owner.token}`,
        '',
        '',
      ].join('\r\n'),
    );
    const next = await received(socket, /HTTP\/1\.1 200 OK.*\r\n\r\n\{.*\}$/s);
    expect(next.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    socket.destroy();
    expect(tooLargeAnswer.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests');
    expect(tooLargeAnswer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    // Another user's large body is read and validated.
    const others = await largeBody(other);
    expect(others.status).toBe(400);
    expect(others.body.error).toMatch(/^meter_sn: /);

    const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
    // The server sees the closes on its side in its own time.
    await whenCounted(0);
    const reply = await largeBody(owner);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^meter_sn: /);
  });

  it('forgets a large body waiting for a slot once its client goes away', async () => {
    const sockets = await halfSentCounted();
    const waiting = await halfSent(owner);
    await whenCounted(1, 'waiting');
    waiting.destroy();
    await whenCounted(0, 'waiting');
    expect(await largeBodiesCounted()).toBe(LARGE_BODIES_PER_USER);
    const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
    await whenCounted(0);
  });

  it('reads small bodies of a user whose large ones are on their way in', async () => {
    const sockets = await halfSentCounted();
    const res = await fetch(`http://127.0.0.1:${port}${READINGS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      body: '{"padding":1}',
    });
    expect(res.status).toBe(400);
    expect(await largeBodiesCounted()).toBe(LARGE_BODIES_PER_USER);
    for (const socket of sockets) socket.destroy();
  });
});
