import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    t = await startTestApp();
    owner = await registerUser(t.app, 'large-bodies');
    other = await registerUser(t.app, 'large-bodies-other');
    await createOrganization(owner);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(async () => t.close());

  /** A request for a large body whose headers and first bytes are sent, the rest never. */
  async function halfSent(user: TestUser): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      [
        `POST ${READINGS} HTTP/1.1`,
        'host: 127.0.0.1',
        `authorization: Bearer ${user.token}`,
        'content-type: application/json',
        `content-length: ${IN_THREAD_MAX_BYTES + 1}`,
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

  /** A large body sent whole on a connection of its own: the server's answer as sent, read until it closes the connection. */
  async function largeBodyAnswer(user: TestUser): Promise<string> {
    const socket = await halfSent(user);
    socket.write(' '.repeat(IN_THREAD_MAX_BYTES - 13));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    await new Promise((resolve) => socket.once('close', resolve));
    return answer;
  }

  /** Large bodies the server counts on their way in (its gauge). */
  async function largeBodiesCounted(): Promise<number> {
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    return Number(/^ums_ingest_large_bodies\{state="running"\} (\d+)$/m.exec(metrics.body)?.[1]);
  }

  /** The owner's large bodies, half sent, once the server has read their headers and counted them. */
  async function halfSentCounted(): Promise<Socket[]> {
    const sockets: Socket[] = [];
    for (let i = 0; i < LARGE_BODIES_PER_USER; i++) {
      sockets.push(await halfSent(owner));
      while ((await largeBodiesCounted()) !== i + 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return sockets;
  }

  it('refuses a user’s large body before reading it while two of theirs are on their way in, and takes it once they end', async () => {
    const sockets = await halfSentCounted();
    expect(await largeBody(owner)).toEqual({ status: 429, retryAfter: '1', body: TOO_MANY_OF_YOURS });
    // Refused unread, after waiting for a slot: the server closes the connection, so that its
    // client stops sending the body.
    const answer = await largeBodyAnswer(owner);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 429 Too Many Requests');
    expect(answer.toLowerCase()).toContain('\r\nconnection: close\r\n');
    // Another user's large body is read and validated.
    const others = await largeBody(other);
    expect(others.status).toBe(400);
    expect(others.body.error).toMatch(/^account_id: /);

    const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
    // The server sees the closes on its side in its own time.
    while ((await largeBodiesCounted()) !== 0) await new Promise((resolve) => setImmediate(resolve));
    const reply = await largeBody(owner);
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatch(/^account_id: /);
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
