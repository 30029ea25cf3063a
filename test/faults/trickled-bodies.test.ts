import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_THREAD_MAX_BYTES } from '../../src/modules/timeseries/ingest-body/ingest-parser.ts';
import { admissionGauge } from '../helpers/admission-gauges.ts';
import { createOrganization, registerUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const READINGS = '/api/v1/timeseries/electricity/readings';
const REQUESTS_PER_USER = 2;

/**
 * Bodies still on their way in, over a real socket: a body is admitted as work only once it has
 * arrived, so a client that trickles one holds nothing but its own connection (and, signed in, one
 * of its own request slots).
 */
describe('bodies still on their way in', () => {
  let t: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp({ REQUESTS_PER_USER: String(REQUESTS_PER_USER), EXPENSIVE_CONCURRENCY_TOTAL: '1' });
    owner = await registerUser(t.app, 'trickled-bodies');
    other = await registerUser(t.app, 'trickled-bodies-other');
    await createOrganization(owner);
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(base).port);
  });
  afterAll(async () => t.close());

  /** A request whose head and first bytes are sent, the rest never (chunked when no length is given). */
  async function trickling(path: string, headers: string[]): Promise<Socket> {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const chunked = !headers.some((h) => h.startsWith('content-length'));
    const first = '{"email":"';
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        'host: 127.0.0.1',
        'content-type: application/json',
        ...(chunked ? ['transfer-encoding: chunked'] : []),
        ...headers,
        '',
        chunked ? `${first.length.toString(16)}\r\n${first}\r\n` : first,
      ].join('\r\n'),
    );
    return socket;
  }

  const largeBody = (user: TestUser) =>
    fetch(`http://127.0.0.1:${port}${READINGS}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: `{"padding":"${' '.repeat(IN_THREAD_MAX_BYTES)}"}`,
    }).then(async (res) => ({ status: res.status, body: await res.json() }));

  const requestsInFlight = () => admissionGauge(t.app, 'ums_requests_in_flight', 'running');
  const whenInFlight = async (count: number) => {
    while ((await requestsInFlight()) !== count) await new Promise((resolve) => setImmediate(resolve));
  };

  it('reads and parses other large bodies while an unauthenticated client trickles a chunked body to sign-in', async () => {
    const sockets = await Promise.all(Array.from({ length: 5 }, () => trickling('/api/v1/auth/login', [])));
    // Each large body is parsed off the main thread once it has arrived, and refused by validation.
    for (const user of [owner, other]) {
      const reply = await largeBody(user);
      expect(reply.status).toBe(400);
      expect(reply.body.error).toMatch(/^meter_sn: /);
    }
    for (const socket of sockets) socket.destroy();
  });

  it('holds one of the user’s own request slots for a half-sent readings body, and nothing of anyone else’s', async () => {
    const sockets: Socket[] = [];
    for (let i = 0; i < REQUESTS_PER_USER; i++) {
      sockets.push(
        await trickling(READINGS, [
          `authorization: Bearer ${owner.token}`,
          `content-length: ${IN_THREAD_MAX_BYTES + 1}`,
        ]),
      );
      await whenInFlight(i + 1);
    }
    const others = await largeBody(other);
    expect(others.status).toBe(400);
    expect(others.body.error).toMatch(/^meter_sn: /);
    const closed = sockets.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of sockets) socket.destroy();
    await Promise.all(closed);
    await whenInFlight(0);
    const owners = await largeBody(owner);
    expect(owners.status).toBe(400);
  });
});
